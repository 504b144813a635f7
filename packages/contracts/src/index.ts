export * from './common.js';
export * from './entities.js';
export * from './envelope.js';
export * from './envelope-schema.js';
export * from './constants.js';
export * from './password-policy.js';
export * from './client-config.js';
