-- The audit trail resists the database user the application writes it with (issue 33, item 7): TRUNCATE, which row
-- triggers never see, is refused like UPDATE and DELETE.
CREATE FUNCTION audit_entries_never_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit entries are never changed or removed' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
  FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_never_truncated();
--> statement-breakpoint
-- Still append-only, with two narrow exceptions: the price-save fold (0012), and the purge's scrub of a deleted
-- account's email from the names of its entries: only `label` may become empty, only on an entry about a member
-- whose account no longer exists.
CREATE OR REPLACE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.action = 'package-price-changed'
     AND OLD.at > now() - interval '1 minute'
     AND (NEW.id, NEW.at, NEW.actor_id, NEW.actor_email, NEW.action, NEW.entity, NEW.entity_id, NEW.before, NEW.label,
          NEW.reverts)
         IS NOT DISTINCT FROM
         (OLD.id, OLD.at, OLD.actor_id, OLD.actor_email, OLD.action, OLD.entity, OLD.entity_id, OLD.before, OLD.label,
          OLD.reverts)
     AND NOT EXISTS (SELECT 1 FROM audit_entries r WHERE r.reverts = OLD.id) THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE'
     AND OLD.entity = 'member'
     AND NEW.label IS NULL
     AND (NEW.id, NEW.at, NEW.actor_id, NEW.actor_email, NEW.action, NEW.entity, NEW.entity_id, NEW.before, NEW.after,
          NEW.labels, NEW.reverts)
         IS NOT DISTINCT FROM
         (OLD.id, OLD.at, OLD.actor_id, OLD.actor_email, OLD.action, OLD.entity, OLD.entity_id, OLD.before, OLD.after,
          OLD.labels, OLD.reverts)
     AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.account_id::text = OLD.entity_id) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit entries are never changed or removed' USING ERRCODE = 'insufficient_privilege';
END $$;
