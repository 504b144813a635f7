// The logout screen, loaded on demand by the app's routes.
export { LogoutCompletePage } from './logout-complete-page.js';
