ALTER TABLE "audit_entries" ADD COLUMN "label" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "labels" jsonb;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "reverts" bigint;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_reverts_audit_entries_id_fk" FOREIGN KEY ("reverts") REFERENCES "public"."audit_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_entries_reverts_idx" ON "audit_entries" USING btree ("reverts");--> statement-breakpoint
CREATE INDEX "audit_entries_search_trgm_idx" ON "audit_entries" USING gin ((coalesce("actor_email", '') || ' ' || "action" || ' ' || coalesce("label", '')) gin_trgm_ops);--> statement-breakpoint
-- Still append-only, with one narrow exception: a debounced price save folds into the same administrator's entry for
-- that price from the last minute. Only `after` (and the names it refers to) may change, and only on such an entry
-- that no revert has undone.
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
  RAISE EXCEPTION 'audit entries are never changed or removed' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
-- The audit list's answers are kept per version like the catalog's: every statement writing entries moves it on.
INSERT INTO data_versions (key, version) VALUES ('audit', 1);
--> statement-breakpoint
CREATE FUNCTION audit_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE data_versions SET version = version + 1 WHERE key = 'audit';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_entries_version AFTER INSERT OR UPDATE ON audit_entries
  FOR EACH STATEMENT EXECUTE FUNCTION audit_version_bump();
--> statement-breakpoint
CREATE TRIGGER audit_entries_count_add AFTER INSERT ON audit_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_add();
--> statement-breakpoint
INSERT INTO list_counts (key, n) SELECT 'audit_entries', count(*) FROM audit_entries;
