import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../../lib/api-context.js';

export interface PasswordChange {
  previousPassword: string;
  proposedPassword: string;
  /** For an account with a second factor: its code. */
  code?: string;
}

/** POST /api/PasswordReset; an answer with isError true is raised as its message by the API client. */
export function useChangePassword() {
  const api = useApi();
  return useMutation({
    mutationFn: async (change: PasswordChange) => {
      await (await api()).post('/PasswordReset', change);
    },
  });
}
