import { sql } from 'drizzle-orm';
import { check, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
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
  (t) => [check('discount_packages_name_not_blank', sql`btrim(${t.name}) <> ''`)],
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
  (t) => [primaryKey({ columns: [t.membershipId, t.productId] })],
);
