export { PersonalInformationSection } from './components/personal-information-section.js';
