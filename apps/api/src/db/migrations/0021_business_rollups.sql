CREATE TABLE "metric_rollups" (
	"source" text PRIMARY KEY NOT NULL,
	"through" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metric_slots" (
	"source" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"n" integer NOT NULL,
	"amount" numeric(16, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "metric_slots_source_slot_kind_pk" PRIMARY KEY("source","slot","kind")
);
--> statement-breakpoint
CREATE INDEX "orders_ordered_at_idx" ON "orders" USING btree ("ordered_at");--> statement-breakpoint
-- The overview's rollups (decision 031). A moment's slot: the quarter hour it falls in (every time zone's midnight
-- starts one, as offsets are whole quarter hours), so a slot lies in one day of any company's calendar.
CREATE FUNCTION metric_slot(at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT date_bin('15 minutes', at, timestamptz '1970-01-01 00:00:00+00') $$;
--> statement-breakpoint
INSERT INTO metric_rollups (source, through) VALUES ('orders', '-infinity'), ('security', '-infinity'), ('audit', '-infinity');
--> statement-breakpoint
-- A statement's rows of a rolled-up table, counted into (or out of) the slots the rollup has already passed, in the
-- writing transaction. Arguments: the source, the time column, the kind and the amount (SQL over the row's columns).
-- The rollup never passes the start of a transaction that is still open, so rows dated at or after this
-- transaction's start (a sign-in, an audit entry: every row the product writes now) are left for it to count and
-- take no lock; older rows (a dated import, a change, a delete) wait for a rollup in progress and then count. The
-- slots are upserted in order, so two writers counting into the same slots never wait for each other in a circle.
CREATE FUNCTION metric_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_source text := TG_ARGV[0];
  v_at text := TG_ARGV[1];
  v_kind text := TG_ARGV[2];
  v_amount text := TG_ARGV[3];
  v_older boolean;
  v_through timestamptz;
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM new_rows WHERE %I < now())', v_at) INTO v_older;
    IF NOT v_older THEN RETURN NULL; END IF;
  END IF;
  SELECT through INTO v_through FROM metric_rollups WHERE source = v_source FOR SHARE;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    EXECUTE format(
      'INSERT INTO metric_slots (source, slot, kind, n, amount)
         SELECT $1, metric_slot(%1$I), %2$s, count(*), coalesce(sum(%3$s), 0) FROM new_rows WHERE %1$I < $2 GROUP BY 2, 3 ORDER BY 2, 3
       ON CONFLICT (source, slot, kind)
         DO UPDATE SET n = metric_slots.n + excluded.n, amount = metric_slots.amount + excluded.amount',
      v_at, v_kind, v_amount) USING v_source, v_through;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    EXECUTE format(
      'INSERT INTO metric_slots (source, slot, kind, n, amount)
         SELECT $1, metric_slot(%1$I), %2$s, -count(*), -coalesce(sum(%3$s), 0) FROM old_rows WHERE %1$I < $2 GROUP BY 2, 3 ORDER BY 2, 3
       ON CONFLICT (source, slot, kind)
         DO UPDATE SET n = metric_slots.n + excluded.n, amount = metric_slots.amount + excluded.amount',
      v_at, v_kind, v_amount) USING v_source, v_through;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_metric_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_changed('orders', 'ordered_at', 'status', 'total_amount');
--> statement-breakpoint
CREATE TRIGGER orders_metric_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_changed('orders', 'ordered_at', 'status', 'total_amount');
--> statement-breakpoint
CREATE TRIGGER orders_metric_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_changed('orders', 'ordered_at', 'status', 'total_amount');
--> statement-breakpoint
CREATE TRIGGER security_events_metric_insert AFTER INSERT ON security_events REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_changed('security', 'at', 'event', '0');
--> statement-breakpoint
CREATE TRIGGER security_events_metric_update AFTER UPDATE ON security_events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_changed('security', 'at', 'event', '0');
--> statement-breakpoint
CREATE TRIGGER security_events_metric_delete AFTER DELETE ON security_events REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_changed('security', 'at', 'event', '0');
--> statement-breakpoint
CREATE TRIGGER audit_entries_metric_insert AFTER INSERT ON audit_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_changed('audit', 'at', 'entity || ''/'' || action', '0');
--> statement-breakpoint
CREATE TRIGGER audit_entries_metric_update AFTER UPDATE ON audit_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_changed('audit', 'at', 'entity || ''/'' || action', '0');
--> statement-breakpoint
CREATE TRIGGER audit_entries_metric_delete AFTER DELETE ON audit_entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION metric_rows_changed('audit', 'at', 'entity || ''/'' || action', '0');
--> statement-breakpoint
-- A table emptied at once (TRUNCATE, the owner's only) takes its slots with it: the rollup starts again from nothing.
CREATE FUNCTION metric_table_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM metric_rollups WHERE source = TG_ARGV[0] FOR UPDATE;
  DELETE FROM metric_slots WHERE source = TG_ARGV[0];
  UPDATE metric_rollups SET through = '-infinity' WHERE source = TG_ARGV[0];
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_metric_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION metric_table_emptied('orders');
--> statement-breakpoint
CREATE TRIGGER security_events_metric_truncate AFTER TRUNCATE ON security_events
  FOR EACH STATEMENT EXECUTE FUNCTION metric_table_emptied('security');
--> statement-breakpoint
CREATE TRIGGER audit_entries_metric_truncate AFTER TRUNCATE ON audit_entries
  FOR EACH STATEMENT EXECUTE FUNCTION metric_table_emptied('audit');
