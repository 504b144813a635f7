-- A member's order search by words through one index whose first key is the member (btree_gin gives GIN the
-- equality of a text column). btree_gin is a trusted extension, like pg_trgm: the database owner may create it, and
-- managed PostgreSQL services offer it.
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
CREATE INDEX "orders_subject_words_idx" ON "orders" USING gin ("subject",to_tsvector('simple', "item_names"));--> statement-breakpoint
DROP INDEX "orders_item_names_words_idx";
