-- Changing the email address (issue 36): the pending, confirmed and restored changes of each account, their links
-- stored only as hashes; and whether an account's address is verified (every existing one is: the CLI made it).
CREATE TABLE "email_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "email_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" uuid NOT NULL,
	"old_email" text NOT NULL,
	"new_email" text NOT NULL,
	"token_hash" text NOT NULL,
	"kept_grant" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	"superseded_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"revert_hash" text,
	"revert_expires_at" timestamp with time zone,
	"reverted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "email_verified" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "email_changes" ADD CONSTRAINT "email_changes_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_changes_token_idx" ON "email_changes" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "email_changes_revert_idx" ON "email_changes" USING btree ("revert_hash");--> statement-breakpoint
CREATE INDEX "email_changes_account_idx" ON "email_changes" USING btree ("account_id","created_at");