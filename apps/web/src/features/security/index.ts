// The account page's Security section, loaded when it first nears the screen.
export { SecuritySection } from './components/security-section.js';
