import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  getTableConfig,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';

const money = (name: string) => numeric(name, { precision: 10, scale: 2 });

export const products = pgTable(
  'products',
  {
    productId: integer('product_id').primaryKey(),
    name: text('name').notNull(),
    retailPrice: money('retail_price').notNull(),
    imageUrl: text('image_url'),
    ...timestamps,
  },
  (t) => [
    check('products_name_not_blank', sql`btrim(${t.name}) <> ''`),
    check('products_retail_price_not_negative', sql`${t.retailPrice} >= 0`),
    // Keyset paging by each offered sort (the id breaks ties), and trigram search for `q`.
    index('products_name_id_idx').on(t.name, t.productId),
    index('products_retail_price_id_idx').on(t.retailPrice, t.productId),
    index('products_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

export const discountPackages = pgTable(
  'discount_packages',
  {
    discountPackageId: integer('discount_package_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    description: text('description'),
    ...timestamps,
  },
  (t) => [
    check('discount_packages_name_not_blank', sql`btrim(${t.name}) <> ''`),
    index('discount_packages_name_id_idx').on(t.name, t.discountPackageId),
    index('discount_packages_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('discount_packages_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
);

export const discountPackageProducts = pgTable(
  'discount_package_products',
  {
    discountPackageId: integer('discount_package_id')
      .notNull()
      .references(() => discountPackages.discountPackageId, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.productId, { onDelete: 'restrict' }),
    price: money('price'),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.discountPackageId, t.productId] }),
    check('discount_package_products_price_not_negative', sql`${t.price} >= 0`),
  ],
);

export const memberships = pgTable(
  'memberships',
  {
    membershipId: integer('membership_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    description: text('description'),
    productId: integer('product_id')
      .notNull()
      .references(() => products.productId, { onDelete: 'restrict' }),
    discountPackageId: integer('discount_package_id').references(() => discountPackages.discountPackageId, {
      onDelete: 'restrict',
    }),
    numberOfFreeEligibleItems: integer('number_of_free_eligible_items').notNull().default(0),
    membershipLengthInMonths: integer('membership_length_in_months').notNull().default(12),
    ...timestamps,
  },
  (t) => [
    check('memberships_name_not_blank', sql`btrim(${t.name}) <> ''`),
    check('memberships_free_items_not_negative', sql`${t.numberOfFreeEligibleItems} >= 0`),
    check('memberships_length_1_to_120', sql`${t.membershipLengthInMonths} between 1 and 120`),
    index('memberships_name_id_idx').on(t.name, t.membershipId),
    index('memberships_length_id_idx').on(t.membershipLengthInMonths, t.membershipId),
    index('memberships_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('memberships_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    // A package's removal finds its users, and its foreign key checks there are none, by this (decision 045).
    index('memberships_discount_package_idx').on(t.discountPackageId),
  ],
);

export const promotionalProducts = pgTable(
  'promotional_products',
  {
    membershipId: integer('membership_id')
      .notNull()
      .references(() => memberships.membershipId, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.productId, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.membershipId, t.productId] }),
    // The links of a product (paging by product name, and the catalog's "still in use" checks).
    index('promotional_products_product_membership_idx').on(t.productId, t.membershipId),
  ],
);

/**
 * Row counts of the admin lists (and of each member's orders under `orders:<subject>`), kept exact by statement
 * triggers in the same transaction as the rows: a page's `total` without counting thousands of rows per request.
 * Derived data: not in backups (the triggers rebuild it as the rows are restored).
 */
export const listCounts = pgTable('list_counts', {
  key: text('key').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});

/**
 * A counter that every write to the catalog tables moves on (a statement trigger, same transaction): whole-list
 * answers are kept in memory per version, so every API process serves the newest committed state.
 */
export const dataVersions = pgTable('data_versions', {
  key: text('key').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/**
 * The name of the memberships' foreign key to their package as PostgreSQL reports a violation of it (cut to 63
 * characters, as it cuts every name): a package's removal and a membership's write tell their race by it (decision
 * 045).
 */
export const MEMBERSHIP_PACKAGE_KEY = getTableConfig(memberships)
  .foreignKeys.find((key) => key.reference().columns.includes(memberships.discountPackageId))!
  .getName()
  .slice(0, 63);
