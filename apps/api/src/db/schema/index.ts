export * from './catalog.js';
export * from './member.js';
export * from './relations.js';
export * from './identity.js';
export * from './security.js';
export * from './audit.js';
export * from './factors.js';
export * from './metrics.js';
