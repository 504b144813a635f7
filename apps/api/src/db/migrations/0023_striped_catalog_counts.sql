-- Writers of different packages and memberships no longer wait for each other's counts (issue 39, decision 040). The
-- catalog lists' kept counts were one row each in `list_counts`, which every insert or delete on the table moved and
-- so held until its commit: creations, removals and promotional links were saved one after another even when they
-- took different stripes of the catalog's lock. Each count is now moved on the stripe the transaction names
-- (`ums.write_stripe`, migration 0022): `<table>` for stripe 0 (the row there was), `<table>#<n>` for the others, and
-- readers take the sum. A stripe may go below zero (a row made in one stripe and removed in another); the sum is the
-- table's count. A statement that changed no row moves no count, and locks no row.
CREATE FUNCTION catalog_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_counts (key, n) SELECT write_stripe_key(TG_TABLE_NAME), count(*) FROM new_rows HAVING count(*) > 0
    ON CONFLICT (key) DO UPDATE SET n = list_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION catalog_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_counts (key, n) SELECT write_stripe_key(TG_TABLE_NAME), -count(*) FROM old_rows HAVING count(*) > 0
    ON CONFLICT (key) DO UPDATE SET n = list_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION catalog_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE list_counts SET n = 0 WHERE key = TG_TABLE_NAME OR starts_with(key, TG_TABLE_NAME || '#');
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['products', 'memberships', 'discount_packages', 'promotional_products'] LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_count_add', t);
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_count_remove', t);
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_count_clear', t);
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_counts_add()', t || '_count_add', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION catalog_counts_remove()', t || '_count_remove', t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION catalog_counts_clear()', t || '_count_clear', t);
  END LOOP;
END $$;
