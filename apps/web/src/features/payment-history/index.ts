export { PaymentHistorySection } from './components/payment-history-section.js';
