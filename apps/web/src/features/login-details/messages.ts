import { PASSWORD_HELPER_TEXT, PASSWORD_MISMATCH_MESSAGE } from '@ums/contracts/password-policy';
import { ApiError } from '../../lib/api-client.js';

export const LOGIN_DETAILS = {
  title: 'Login Details',
  email: 'Email',
  /**
   * EMAIL_CHANGE_TEXTS.edit, written out: importing that object would bring every text of the email change (the
   * provider's pages' and the mails' too) into the account page's first load. The tests hold the two equal.
   */
  editEmail: 'Change email',
  password: 'Password',
  maskedPassword: '••••••••',
  hiddenPassword: 'Password hidden',
  editPassword: 'Change password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  confirmPassword: 'Confirm password',
  helper: PASSWORD_HELPER_TEXT,
  mismatch: PASSWORD_MISMATCH_MESSAGE,
  reset: 'Reset password',
  changing: 'Changing...',
  cancel: 'Cancel',
  changed: 'Password changed',
  checklist: 'Password rules',
  met: 'met',
  notMet: 'not met',
  /** When the API gives no reason of its own (a server fault, no network); its refusals say theirs. */
  emailChangeFailed: 'The email change did not work. Please try again.',
} as const;

/** SPEC section 9: the success message shows for 3 s before the form closes. */
export const PASSWORD_SUCCESS_MS = 3000;

/** SPEC section 8: password change failures by status. */
export const PASSWORD_STATUS_MESSAGES: Record<number, string> = {
  400: 'Current password is incorrect or new password does not meet requirements.',
  401: 'You are not authorized to change the password. Please log in again.',
  429: 'Too many attempts. Please wait before trying again.',
  500: 'Server error occurred. Please try again later.',
};
export const PASSWORD_OTHER_STATUS = 'Failed to change password. Please try again.';

export function passwordChangeError(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400) {
    return PASSWORD_STATUS_MESSAGES[error.status] ?? PASSWORD_OTHER_STATUS;
  }
  return error instanceof Error && error.message ? error.message : PASSWORD_OTHER_STATUS;
}
