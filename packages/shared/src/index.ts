export * from './errors.js';
export * from './premium.js';
export * from './meeting.js';
export * from './transcript.js';
export * from './handshake.js';
export * from './prompts/index.js';
export * from './html.js';
