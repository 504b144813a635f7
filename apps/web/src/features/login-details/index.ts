export { LoginDetailsSection } from './components/login-details-section.js';
