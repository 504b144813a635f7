import { discountPackageInputSchema, type DiscountPackage, type DiscountPackageProductKey } from '@ums/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { moneyText } from '../../db/money.js';
import { discountPackageProducts, discountPackages, memberships, products } from '../../db/schema/index.js';
import { badRequest, conflict, notFound } from '../../plugins/http-errors.js';
import { PACKAGE_ITEM } from './discount-packages.lists.js';

type PackageFields = z.output<typeof discountPackageInputSchema>;
interface PriceChange {
  discountPackageId: number;
  productId: number;
  price: number | null;
}

export function createDiscountPackageService({ db }: { db: Database }) {
  async function get(id: number): Promise<DiscountPackage> {
    const { rows } = await db.execute<{ item: DiscountPackage }>(
      sql`select ${sql.raw(PACKAGE_ITEM)} as item from discount_packages dp where dp.discount_package_id = ${id}`,
    );
    if (!rows[0]) throw notFound(`Discount package ${id}`);
    return rows[0].item;
  }

  async function assertPackageAndProduct(key: DiscountPackageProductKey) {
    const pkg = await db.query.discountPackages.findFirst({
      where: eq(discountPackages.discountPackageId, Number(key.discountPackageId)),
    });
    if (!pkg) throw notFound(`Discount package ${key.discountPackageId}`);
    const product = await db.query.products.findFirst({ where: eq(products.productId, Number(key.productId)) });
    if (!product) throw notFound(`Product ${key.productId}`);
  }

  const keyWhere = (key: { discountPackageId: number; productId: number }) =>
    and(
      eq(discountPackageProducts.discountPackageId, key.discountPackageId),
      eq(discountPackageProducts.productId, key.productId),
    );

  return {
    get,

    async create(fields: PackageFields): Promise<DiscountPackage> {
      const [row] = await db
        .insert(discountPackages)
        .values({ name: fields.name, description: fields.description })
        .returning();
      return get(row!.discountPackageId);
    },

    async update(id: number, fields: PackageFields): Promise<DiscountPackage> {
      if (fields.discountPackageId !== undefined && fields.discountPackageId !== id) {
        throw badRequest(
          `discountPackageId ${fields.discountPackageId} in the body does not match ${id} in the address`,
        );
      }
      const updated = await db
        .update(discountPackages)
        .set({ name: fields.name, description: fields.description, updatedAt: new Date() })
        .where(eq(discountPackages.discountPackageId, id))
        .returning();
      if (updated.length === 0) throw notFound(`Discount package ${id}`);
      return get(id);
    },

    async remove(id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const users = await tx
          .select({ name: memberships.name })
          .from(memberships)
          .where(eq(memberships.discountPackageId, id))
          .orderBy(asc(memberships.name));
        if (users.length > 0) {
          throw conflict(
            `This discount package is used by ${users.length === 1 ? 'the membership' : 'the memberships'} ${users
              .map((u) => `"${u.name}"`)
              .join(', ')}. Choose another package for ${users.length === 1 ? 'it' : 'them'} first.`,
          );
        }
        const deleted = await tx.delete(discountPackages).where(eq(discountPackages.discountPackageId, id)).returning();
        if (deleted.length === 0) throw notFound(`Discount package ${id}`);
      });
    },

    /** Sets or clears (null) the package price of a product already in the package. */
    async setPrice(change: PriceChange): Promise<DiscountPackage> {
      await assertPackageAndProduct(change);
      const updated = await db
        .update(discountPackageProducts)
        .set({ price: change.price === null ? null : moneyText(change.price), updatedAt: new Date() })
        .where(keyWhere(change))
        .returning();
      if (updated.length === 0)
        throw notFound(`Product ${change.productId} in discount package ${change.discountPackageId}`);
      return get(change.discountPackageId);
    },

    async addProduct(change: PriceChange): Promise<DiscountPackage> {
      await assertPackageAndProduct(change);
      const inserted = await db
        .insert(discountPackageProducts)
        .values({
          discountPackageId: change.discountPackageId,
          productId: change.productId,
          price: change.price === null ? null : moneyText(change.price),
        })
        .onConflictDoNothing()
        .returning();
      if (inserted.length === 0) throw conflict(`Product ${change.productId} is already in this discount package`);
      return get(change.discountPackageId);
    },

    async removeProduct(key: { discountPackageId: number; productId: number }): Promise<DiscountPackage> {
      const deleted = await db.delete(discountPackageProducts).where(keyWhere(key)).returning();
      if (deleted.length === 0) throw notFound(`Product ${key.productId} in discount package ${key.discountPackageId}`);
      return get(key.discountPackageId);
    },
  };
}
