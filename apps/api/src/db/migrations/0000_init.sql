CREATE TABLE "discount_package_products" (
	"discount_package_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"price" numeric(10, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_package_products_discount_package_id_product_id_pk" PRIMARY KEY("discount_package_id","product_id"),
	CONSTRAINT "discount_package_products_price_not_negative" CHECK ("discount_package_products"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "discount_packages" (
	"discount_package_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "discount_packages_discount_package_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_packages_name_not_blank" CHECK (btrim("discount_packages"."name") <> '')
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"membership_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "memberships_membership_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text,
	"product_id" integer NOT NULL,
	"discount_package_id" integer,
	"number_of_free_eligible_items" integer DEFAULT 0 NOT NULL,
	"membership_length_in_months" integer DEFAULT 12 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_name_not_blank" CHECK (btrim("memberships"."name") <> ''),
	CONSTRAINT "memberships_free_items_not_negative" CHECK ("memberships"."number_of_free_eligible_items" >= 0),
	CONSTRAINT "memberships_length_1_to_120" CHECK ("memberships"."membership_length_in_months" between 1 and 120)
);
--> statement-breakpoint
CREATE TABLE "products" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"retail_price" numeric(10, 2) NOT NULL,
	"image_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_name_not_blank" CHECK (btrim("products"."name") <> ''),
	CONSTRAINT "products_retail_price_not_negative" CHECK ("products"."retail_price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "promotional_products" (
	"membership_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotional_products_membership_id_product_id_pk" PRIMARY KEY("membership_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"order_id" integer NOT NULL,
	"position" integer NOT NULL,
	"product_name" text NOT NULL,
	CONSTRAINT "order_items_order_id_position_pk" PRIMARY KEY("order_id","position")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"order_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "orders_order_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"total_amount" numeric(10, 2) NOT NULL,
	"ordered_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	CONSTRAINT "orders_total_not_negative" CHECK ("orders"."total_amount" >= 0),
	CONSTRAINT "orders_status_not_blank" CHECK (btrim("orders"."status") <> '')
);
--> statement-breakpoint
CREATE TABLE "subscription_products" (
	"subscription_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "subscription_products_subscription_id_product_id_pk" PRIMARY KEY("subscription_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"subscription_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscriptions_subscription_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"price_per_interval" numeric(10, 2) NOT NULL,
	"billing_interval" integer NOT NULL,
	"billing_period" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "subscriptions_price_not_negative" CHECK ("subscriptions"."price_per_interval" >= 0),
	CONSTRAINT "subscriptions_interval_positive" CHECK ("subscriptions"."billing_interval" >= 1),
	CONSTRAINT "subscriptions_period_unit" CHECK ("subscriptions"."billing_period" in ('day', 'week', 'month', 'year'))
);
--> statement-breakpoint
CREATE TABLE "user_details" (
	"subject" text PRIMARY KEY NOT NULL,
	"first_name" text,
	"last_name" text,
	"email" text,
	"biological_sex" text,
	"birthdate" date,
	"phone_number" text,
	"street_address" text,
	"city" text,
	"country_region" text,
	"state_province" text,
	"postal_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_details_biological_sex" CHECK ("user_details"."biological_sex" is null or "user_details"."biological_sex" in ('Male', 'Female'))
);
--> statement-breakpoint
ALTER TABLE "discount_package_products" ADD CONSTRAINT "discount_package_products_discount_package_id_discount_packages_discount_package_id_fk" FOREIGN KEY ("discount_package_id") REFERENCES "public"."discount_packages"("discount_package_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_package_products" ADD CONSTRAINT "discount_package_products_product_id_products_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("product_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_product_id_products_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("product_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_discount_package_id_discount_packages_discount_package_id_fk" FOREIGN KEY ("discount_package_id") REFERENCES "public"."discount_packages"("discount_package_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotional_products" ADD CONSTRAINT "promotional_products_membership_id_memberships_membership_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("membership_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotional_products" ADD CONSTRAINT "promotional_products_product_id_products_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("product_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_products" ADD CONSTRAINT "subscription_products_subscription_id_subscriptions_subscription_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("subscription_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_products" ADD CONSTRAINT "subscription_products_product_id_products_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("product_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_subject_ordered_at_idx" ON "orders" USING btree ("subject","ordered_at");--> statement-breakpoint
CREATE INDEX "subscriptions_subject_idx" ON "subscriptions" USING btree ("subject");