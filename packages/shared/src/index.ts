export * from './errors.js';
export * from './premium.js';
