-- Each member's own lists (payment history, subscriptions) are kept in memory per member version, under
-- 'member:' || subject in data_versions: every statement that writes a member's orders, order items, subscriptions
-- or subscription products moves that member's version on in the writing transaction. A version row is never
-- deleted, so a version number is never given out twice for one member.
CREATE FUNCTION member_versions_bump(subjects text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO data_versions (key, version)
    SELECT DISTINCT 'member:' || s, 1 FROM unnest(subjects) s WHERE s IS NOT NULL ORDER BY 1
    ON CONFLICT (key) DO UPDATE SET version = data_versions.version + 1;
$$;
--> statement-breakpoint
-- One function per kind of row, for every event (as in PostgreSQL's own transition table example): an insert sees
-- new_rows, a delete old_rows, an update both (a row moved to another member changes both members' lists).
CREATE FUNCTION member_version_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM member_versions_bump(ARRAY(SELECT subject FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM member_versions_bump(ARRAY(SELECT subject FROM old_rows));
  ELSE
    PERFORM member_versions_bump(ARRAY(SELECT subject FROM old_rows UNION SELECT subject FROM new_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Rows that name their subscription or order, not the member: the member is found through it (a delete that
-- cascades from the subscription or order finds none, and needs none: that delete moved the version already).
CREATE FUNCTION member_version_subscription_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM member_versions_bump(ARRAY(SELECT s.subject FROM subscriptions s
      WHERE s.subscription_id IN (SELECT subscription_id FROM new_rows)));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM member_versions_bump(ARRAY(SELECT s.subject FROM subscriptions s
      WHERE s.subscription_id IN (SELECT subscription_id FROM old_rows)));
  ELSE
    PERFORM member_versions_bump(ARRAY(SELECT s.subject FROM subscriptions s WHERE s.subscription_id IN
      (SELECT subscription_id FROM old_rows UNION SELECT subscription_id FROM new_rows)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION member_version_order_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM member_versions_bump(ARRAY(SELECT o.subject FROM orders o
      WHERE o.order_id IN (SELECT order_id FROM new_rows)));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM member_versions_bump(ARRAY(SELECT o.subject FROM orders o
      WHERE o.order_id IN (SELECT order_id FROM old_rows)));
  ELSE
    PERFORM member_versions_bump(ARRAY(SELECT o.subject FROM orders o WHERE o.order_id IN
      (SELECT order_id FROM old_rows UNION SELECT order_id FROM new_rows)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION member_versions_bump_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE data_versions SET version = version + 1 WHERE key LIKE 'member:%';
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
  changed text;
BEGIN
  FOREACH t IN ARRAY ARRAY['orders', 'subscriptions', 'order_items', 'subscription_products'] LOOP
    changed := CASE t
      WHEN 'order_items' THEN 'member_version_order_rows_changed'
      WHEN 'subscription_products' THEN 'member_version_subscription_rows_changed'
      ELSE 'member_version_rows_changed' END;
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()', t || '_member_version_insert', t, changed);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()', t || '_member_version_delete', t, changed);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()', t || '_member_version_update', t, changed);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION member_versions_bump_all()', t || '_member_version_truncate', t);
  END LOOP;
END $$;
