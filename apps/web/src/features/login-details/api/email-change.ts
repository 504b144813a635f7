import type { EmailChangeRequest } from '@ums/contracts';
import type { EmailChangeStatus } from '@ums/contracts/self-service/email-change';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, firstOf, type ApiClient } from '../../../lib/api-client.js';
import { useApi } from '../../../lib/api-context.js';
import { emailChangeStatusKey } from './email-change-status.js';

/**
 * One write of the email change; each answers the new status, which the row shows at once. A refusal because the
 * change is no longer waiting (409: confirmed, cancelled or expired meanwhile, maybe in another tab) reloads it.
 */
function useEmailChangeWrite<T>(send: (client: ApiClient, input: T) => Promise<unknown>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: T) => firstOf<EmailChangeStatus>(await send(await api(), input)),
    onSuccess: (status) => {
      if (status) queryClient.setQueryData(emailChangeStatusKey, status);
      else void queryClient.invalidateQueries({ queryKey: emailChangeStatusKey });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409)
        void queryClient.invalidateQueries({ queryKey: emailChangeStatusKey });
    },
  });
}

/** POST /api/me/email-change: mails a link to the new address; the address stays until the link is opened. */
export const useRequestEmailChange = () =>
  useEmailChangeWrite((client, request: EmailChangeRequest) => client.post('/me/email-change', request));

/** POST /api/me/email-change/resend: the same change, a fresh link. */
export const useResendEmailChange = () =>
  useEmailChangeWrite<void>((client) => client.post('/me/email-change/resend', {}));

/** DELETE /api/me/email-change: the waiting change is dropped and its link stops working. */
export const useCancelEmailChange = () => useEmailChangeWrite<void>((client) => client.delete('/me/email-change'));
