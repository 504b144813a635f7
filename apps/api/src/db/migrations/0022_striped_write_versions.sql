-- Writers of different discount packages' prices no longer wait for each other (issue 39, decision 036). The
-- catalog's version, the audit trail's version and the trail's entry count were one row each, which every catalog
-- writer updated and so held until its commit. Each is now 16 rows, stripes, and a reader takes their sum: every
-- commit adds to one stripe at least, so the sum moves on with every committed write as the one row did. A
-- transaction names its stripe in `ums.write_stripe` (a package's price save: its package's stripe, see
-- `lockPackagePrices`); a writer that names none (every other catalog write, which locks all the catalog's stripes
-- first, and writers outside the catalog) uses stripe 0, the rows that were there before.
CREATE FUNCTION write_stripe_key(base text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN s = 0 THEN base ELSE base || '#' || s END
  FROM (SELECT least(greatest(coalesce(nullif(current_setting('ums.write_stripe', true), '')::int, 0), 0), 15) AS s) t
$$;
--> statement-breakpoint
INSERT INTO data_versions (key, version)
  SELECT base || '#' || g, 0 FROM unnest(ARRAY['catalog', 'audit']) AS base, generate_series(1, 15) AS g;
--> statement-breakpoint
INSERT INTO list_counts (key, n) SELECT 'audit_entries#' || g, 0 FROM generate_series(1, 15) AS g;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalog_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE data_versions SET version = version + 1 WHERE key = write_stripe_key('catalog');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE data_versions SET version = version + 1 WHERE key = write_stripe_key('audit');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION audit_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_counts (key, n) SELECT write_stripe_key('audit_entries'), count(*) FROM new_rows
    ON CONFLICT (key) DO UPDATE SET n = list_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER audit_entries_count_add ON audit_entries;
--> statement-breakpoint
CREATE TRIGGER audit_entries_count_add AFTER INSERT ON audit_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION audit_counts_add();
