// The account area, loaded on demand by the app's routes.
export { default } from './account-area.js';
