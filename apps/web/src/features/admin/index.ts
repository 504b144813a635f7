// The admin console, loaded on demand by the app's routes (a member never downloads it).
export { default } from './admin-console.js';
