-- An account's sessions, grants, codes and tokens by the account id their payload names, of every model: ending an
-- account's sessions (a password change, "End all sessions", a group change, closing an account) and the purge of a
-- closed account delete its grants and tokens by it, which the index of sessions alone did not cover, so each read
-- every provider row. The upgrade builds the index in its one transaction, and sign-ins and refreshes wait for it:
-- about 2 s per million rows here.
DROP INDEX "oidc_payloads_session_account_idx";--> statement-breakpoint
CREATE INDEX "oidc_payloads_account_idx" ON "oidc_payloads" USING btree (("payload"->>'accountId'));