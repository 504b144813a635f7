import { z } from 'zod';

/** What the web app needs to know at run time: one build serves every environment. */
export const clientConfigSchema = z.object({
  authority: z.string(),
  clientId: z.string(),
  scope: z.string(),
  redirectPath: z.string(),
  silentRenewPath: z.string(),
  /** Logout address form with {clientId} and {returnTo} placeholders. */
  logoutUrl: z.string(),
  groupsClaim: z.string(),
  roleClaim: z.string(),
  adminGroup: z.string(),
  apiBase: z.string(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
