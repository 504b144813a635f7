-- The member directory's size, kept like the catalog lists' counts (moved by statement triggers in the writing
-- transaction), so a page does not count 100,000 accounts.
CREATE TRIGGER accounts_count_add AFTER INSERT ON accounts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_add();
--> statement-breakpoint
CREATE TRIGGER accounts_count_remove AFTER DELETE ON accounts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_remove();
--> statement-breakpoint
INSERT INTO list_counts (key, n) SELECT 'accounts', count(*) FROM accounts
  ON CONFLICT (key) DO UPDATE SET n = excluded.n;
--> statement-breakpoint
-- The directory's answers are kept per version like the catalog's and the audit trail's: every statement that
-- writes what a directory entry shows (the account, the member's names, a pending deletion) moves it on, before
-- its first row changes (as the catalog's do).
INSERT INTO data_versions (key, version) VALUES ('members', 1);
--> statement-breakpoint
CREATE FUNCTION members_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE data_versions SET version = version + 1 WHERE key = 'members';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_members_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION members_version_bump();
--> statement-breakpoint
CREATE TRIGGER user_details_members_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_details
  FOR EACH STATEMENT EXECUTE FUNCTION members_version_bump();
--> statement-breakpoint
CREATE TRIGGER account_deletions_members_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON account_deletions
  FOR EACH STATEMENT EXECUTE FUNCTION members_version_bump();
