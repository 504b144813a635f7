import { silentSignInAnswer } from './features/auth/silent-answer.js';

// The provider's answer to a hidden sign-in frame lands here; the page that opened the frame reads it.
window.parent.postMessage(silentSignInAnswer(window.location.href), window.location.origin);
