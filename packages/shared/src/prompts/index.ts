export * from './types.js';
export * from './catalogue.js';
export * from './languages.js';
export * from './settings.js';
export * from './limits.js';
