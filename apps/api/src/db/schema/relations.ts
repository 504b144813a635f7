import { relations } from 'drizzle-orm';
import { discountPackageProducts, discountPackages, memberships, products, promotionalProducts } from './catalog.js';
import { orderItems, orders, subscriptionProducts, subscriptions } from './member.js';

export const membershipRelations = relations(memberships, ({ one, many }) => ({
  product: one(products, { fields: [memberships.productId], references: [products.productId] }),
  discountPackage: one(discountPackages, {
    fields: [memberships.discountPackageId],
    references: [discountPackages.discountPackageId],
  }),
  promotionalProducts: many(promotionalProducts),
}));

export const promotionalProductRelations = relations(promotionalProducts, ({ one }) => ({
  membership: one(memberships, {
    fields: [promotionalProducts.membershipId],
    references: [memberships.membershipId],
  }),
  product: one(products, {
    fields: [promotionalProducts.productId],
    references: [products.productId],
  }),
}));

export const discountPackageRelations = relations(discountPackages, ({ many }) => ({
  products: many(discountPackageProducts),
}));

export const discountPackageProductRelations = relations(discountPackageProducts, ({ one }) => ({
  discountPackage: one(discountPackages, {
    fields: [discountPackageProducts.discountPackageId],
    references: [discountPackages.discountPackageId],
  }),
  product: one(products, {
    fields: [discountPackageProducts.productId],
    references: [products.productId],
  }),
}));

export const subscriptionRelations = relations(subscriptions, ({ many }) => ({
  products: many(subscriptionProducts),
}));

export const subscriptionProductRelations = relations(subscriptionProducts, ({ one }) => ({
  subscription: one(subscriptions, {
    fields: [subscriptionProducts.subscriptionId],
    references: [subscriptions.subscriptionId],
  }),
  product: one(products, {
    fields: [subscriptionProducts.productId],
    references: [products.productId],
  }),
}));

export const orderRelations = relations(orders, ({ many }) => ({
  items: many(orderItems),
}));

export const orderItemRelations = relations(orderItems, ({ one }) => ({
  order: one(orders, { fields: [orderItems.orderId], references: [orders.orderId] }),
}));
