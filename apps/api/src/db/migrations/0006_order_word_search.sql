DROP INDEX "orders_item_names_trgm_idx";--> statement-breakpoint
CREATE INDEX "orders_item_names_words_idx" ON "orders" USING gin (to_tsvector('simple', "item_names"));