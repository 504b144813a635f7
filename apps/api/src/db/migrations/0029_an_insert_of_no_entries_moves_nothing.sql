-- An insert into the audit trail that adds no entry moves nothing (decision 051). A price's save is one statement
-- that folds it into the administrator's entry of the last minute, or appends one when there is none: its insert
-- adds no row when it folds, and the statement trigger of migration 0028 still runs for it. It would update the
-- stripe's count by 0 (a row version for nothing) and move the trail's version a second time, on top of the update's
-- own trigger. It now returns at once when no row was added.
CREATE OR REPLACE FUNCTION audit_entries_added() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_n bigint;
  v_older boolean;
  v_through timestamptz;
BEGIN
  SELECT count(*), coalesce(bool_or(at < now()), false) INTO v_n, v_older FROM new_rows;
  IF v_n = 0 THEN
    RETURN NULL;
  END IF;
  UPDATE list_counts SET n = n + v_n WHERE key = write_stripe_key('audit_entries');
  IF NOT FOUND THEN
    RAISE EXCEPTION 'The audit trail''s count rows are missing (migration 0022): the write was not made';
  END IF;
  IF v_older THEN
    SELECT through INTO v_through FROM metric_rollups WHERE source = 'audit' FOR SHARE;
    INSERT INTO metric_slots (source, slot, kind, n, amount)
      SELECT 'audit', metric_slot(at), entity || '/' || action, count(*), 0 FROM new_rows WHERE at < v_through
        GROUP BY 2, 3 ORDER BY 2, 3
    ON CONFLICT (source, slot, kind)
      DO UPDATE SET n = metric_slots.n + excluded.n, amount = metric_slots.amount + excluded.amount;
  END IF;
  UPDATE data_versions SET version = version + 1 WHERE key = write_stripe_key('audit');
  RETURN NULL;
END $$;
