-- Data keys of the key service (issue 33, item 1): stored only wrapped under the key-encryption key, which lives outside
-- the database (SECRETS_KEY or DATA_DIR/secrets.key). Values sealed with them name the key they used.
CREATE TABLE "data_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"kek_id" text NOT NULL,
	"wrapped" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
