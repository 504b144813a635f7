/**
 * Members' self-service beyond the specification (receipts, their data, closing the account), free of any schema
 * library (the browser imports it): the words members see and the constants both sides use.
 */

export * from './self-service/account-deletion.js';
export * from './self-service/email-change.js';
export * from './self-service/my-data.js';
export * from './self-service/receipts.js';
