export const API_MESSAGES = {
  notInitialized: 'API client not initialized. Please wait for authentication to complete.',
  requestFailed: 'API request failed',
  unableToInitialize: 'Unable to initialize API connection',
  httpError: (status: number) => `HTTP error! status: ${status}`,
} as const;

export const INVALID_DATE = 'Invalid date';

export const CONFIG_ERROR = 'The application could not load its configuration. Please reload the page.';
