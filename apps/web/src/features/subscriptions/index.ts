export { SubscriptionsSection } from './components/subscriptions-section.js';
