-- The name a member types into Personal Information becomes their account's name too (in the same statement), so
-- the directory finds them by the name it shows (its search reads the account's names, through one trigram index),
-- the provider's profile claims carry it, and mail greets them by it. A blank name leaves the account's as it was:
-- the directory shows the account's name then, and finds it.
CREATE FUNCTION account_names_follow_details() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Subjects of other providers (Cognito's, say) have no account here; only a UUID can name one.
  IF NEW.subject ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN
    UPDATE accounts
      SET first_name = coalesce(NEW.first_name, first_name), last_name = coalesce(NEW.last_name, last_name),
          updated_at = now()
      WHERE account_id = NEW.subject::uuid
        AND (first_name IS DISTINCT FROM coalesce(NEW.first_name, first_name)
          OR last_name IS DISTINCT FROM coalesce(NEW.last_name, last_name));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_details_account_names AFTER INSERT OR UPDATE OF first_name, last_name ON user_details
  FOR EACH ROW EXECUTE FUNCTION account_names_follow_details();
--> statement-breakpoint
UPDATE accounts a
  SET first_name = coalesce(u.first_name, a.first_name), last_name = coalesce(u.last_name, a.last_name)
  FROM user_details u
  WHERE u.subject = a.account_id::text
    AND (a.first_name IS DISTINCT FROM coalesce(u.first_name, a.first_name)
      OR a.last_name IS DISTINCT FROM coalesce(u.last_name, a.last_name));
