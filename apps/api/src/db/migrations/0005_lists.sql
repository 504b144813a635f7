-- Trigram indexes answer the lists' case-insensitive substring search (q). pg_trgm is a trusted extension: the
-- database owner may create it (managed PostgreSQL services offer it too).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "data_versions" (
	"key" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "list_counts" (
	"key" text PRIMARY KEY NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_subject_ordered_at_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "item_names" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "discount_packages_name_id_idx" ON "discount_packages" USING btree ("name","discount_package_id");--> statement-breakpoint
CREATE INDEX "discount_packages_name_trgm_idx" ON "discount_packages" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "discount_packages_description_trgm_idx" ON "discount_packages" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "memberships_name_id_idx" ON "memberships" USING btree ("name","membership_id");--> statement-breakpoint
CREATE INDEX "memberships_length_id_idx" ON "memberships" USING btree ("membership_length_in_months","membership_id");--> statement-breakpoint
CREATE INDEX "memberships_name_trgm_idx" ON "memberships" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "memberships_description_trgm_idx" ON "memberships" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_name_id_idx" ON "products" USING btree ("name","product_id");--> statement-breakpoint
CREATE INDEX "products_retail_price_id_idx" ON "products" USING btree ("retail_price","product_id");--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "promotional_products_product_membership_idx" ON "promotional_products" USING btree ("product_id","membership_id");--> statement-breakpoint
CREATE INDEX "orders_subject_id_idx" ON "orders" USING btree ("subject","order_id");--> statement-breakpoint
CREATE INDEX "orders_subject_total_idx" ON "orders" USING btree ("subject","total_amount","order_id");--> statement-breakpoint
CREATE INDEX "orders_subject_status_idx" ON "orders" USING btree ("subject","status","order_id");--> statement-breakpoint
CREATE INDEX "orders_subject_item_names_idx" ON "orders" USING btree ("subject","item_names","order_id");--> statement-breakpoint
CREATE INDEX "orders_item_names_trgm_idx" ON "orders" USING gin ("item_names" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "orders_subject_ordered_at_idx" ON "orders" USING btree ("subject","ordered_at","order_id");
--> statement-breakpoint
-- Exact row counts of the admin lists, moved by statement triggers in the writing transaction.
CREATE FUNCTION list_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_counts (key, n) SELECT TG_TABLE_NAME, count(*) FROM new_rows
    ON CONFLICT (key) DO UPDATE SET n = list_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION list_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE list_counts SET n = n - (SELECT count(*) FROM old_rows) WHERE key = TG_TABLE_NAME;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION list_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE list_counts SET n = 0 WHERE key = TG_TABLE_NAME;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Each member's order count, under 'orders:' || subject.
CREATE FUNCTION order_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_counts (key, n) SELECT 'orders:' || subject, count(*) FROM new_rows GROUP BY subject ORDER BY 1
    ON CONFLICT (key) DO UPDATE SET n = list_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION order_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE list_counts c SET n = c.n - o.n
    FROM (SELECT 'orders:' || subject AS key, count(*) AS n FROM old_rows GROUP BY subject) o WHERE c.key = o.key;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION order_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE list_counts c SET n = c.n - o.n
    FROM (SELECT 'orders:' || subject AS key, count(*) AS n FROM old_rows GROUP BY subject) o WHERE c.key = o.key;
  INSERT INTO list_counts (key, n) SELECT 'orders:' || subject, count(*) FROM new_rows GROUP BY subject ORDER BY 1
    ON CONFLICT (key) DO UPDATE SET n = list_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION order_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM list_counts WHERE key LIKE 'orders:%';
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Every write to a catalog table moves the catalog version on, before its first row changes: all catalog writers
-- take this one row lock first, so they never wait for each other in opposite orders.
CREATE FUNCTION catalog_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE data_versions SET version = version + 1 WHERE key = 'catalog';
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An order's product names, joined in item order, for sorting and searching the member's payment history.
CREATE FUNCTION order_item_names_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE orders o SET item_names = coalesce(
      (SELECT string_agg(i.product_name, ', ' ORDER BY i.position) FROM order_items i WHERE i.order_id = o.order_id), '')
    WHERE o.order_id IN (SELECT order_id FROM changed_items);
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['products', 'memberships', 'discount_packages', 'promotional_products'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_add()', t || '_count_add', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_remove()', t || '_count_remove', t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION list_counts_clear()', t || '_count_clear', t);
    EXECUTE format('INSERT INTO list_counts (key, n) SELECT %L, count(*) FROM %I', t, t);
  END LOOP;
  FOREACH t IN ARRAY ARRAY['products', 'memberships', 'discount_packages', 'discount_package_products', 'promotional_products'] LOOP
    EXECUTE format('CREATE TRIGGER %I BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_bump()', t || '_catalog_version', t);
  END LOOP;
END $$;
--> statement-breakpoint
INSERT INTO data_versions (key, version) VALUES ('catalog', 1);
--> statement-breakpoint
CREATE TRIGGER orders_count_add AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_counts_add();
--> statement-breakpoint
CREATE TRIGGER orders_count_remove AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION order_counts_remove();
--> statement-breakpoint
CREATE TRIGGER orders_count_move AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_counts_move();
--> statement-breakpoint
CREATE TRIGGER orders_count_clear AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION order_counts_clear();
--> statement-breakpoint
INSERT INTO list_counts (key, n) SELECT 'orders:' || subject, count(*) FROM orders GROUP BY subject;
--> statement-breakpoint
CREATE TRIGGER order_items_names_insert AFTER INSERT ON order_items REFERENCING NEW TABLE AS changed_items FOR EACH STATEMENT EXECUTE FUNCTION order_item_names_refresh();
--> statement-breakpoint
CREATE TRIGGER order_items_names_update AFTER UPDATE ON order_items REFERENCING NEW TABLE AS changed_items FOR EACH STATEMENT EXECUTE FUNCTION order_item_names_refresh();
--> statement-breakpoint
CREATE TRIGGER order_items_names_delete AFTER DELETE ON order_items REFERENCING OLD TABLE AS changed_items FOR EACH STATEMENT EXECUTE FUNCTION order_item_names_refresh();
--> statement-breakpoint
UPDATE orders o SET item_names = coalesce(
    (SELECT string_agg(i.product_name, ', ' ORDER BY i.position) FROM order_items i WHERE i.order_id = o.order_id), '');
