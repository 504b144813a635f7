import { discountPackageInputSchema, type DiscountPackage, type DiscountPackageProductKey } from '@ums/contracts';
import { asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { moneyText } from '../../db/money.js';
import { discountPackages, memberships } from '../../db/schema/index.js';
import { badRequest, conflict, notFound } from '../../plugins/http-errors.js';
import { catalogTransaction, type Actor, type Executor } from '../audit/audit.js';
import { discountPackageEntity, recordChange } from '../audit/entities.js';
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

  async function assertPackageAndProduct(tx: Executor, key: DiscountPackageProductKey) {
    const { rows } = await tx.execute<{ pkg: boolean; product: boolean }>(sql`
      select exists (select 1 from discount_packages where discount_package_id = ${Number(key.discountPackageId)}) as pkg,
             exists (select 1 from products where product_id = ${Number(key.productId)}) as product`);
    if (!rows[0]!.pkg) throw notFound(`Discount package ${key.discountPackageId}`);
    if (!rows[0]!.product) throw notFound(`Product ${key.productId}`);
  }

  /** An audited write to one package, in a catalog transaction; answers the package as it is after. */
  async function audited(
    actor: Actor,
    id: number,
    action: string,
    write: (tx: Executor) => Promise<unknown>,
    foldPrice?: number,
  ): Promise<DiscountPackage> {
    await catalogTransaction(db, (tx) =>
      recordChange(
        tx,
        discountPackageEntity,
        String(id),
        { actor, action, ...(foldPrice === undefined ? {} : { foldPrice }) },
        () => write(tx),
      ),
    );
    return get(id);
  }

  return {
    get,

    async create(actor: Actor, fields: PackageFields): Promise<DiscountPackage> {
      let id = 0;
      await catalogTransaction(db, (tx) =>
        recordChange(
          tx,
          discountPackageEntity,
          () => String(id),
          { actor, action: 'discount-package-created' },
          async () => {
            const [row] = await tx
              .insert(discountPackages)
              .values({ name: fields.name, description: fields.description })
              .returning();
            id = row!.discountPackageId;
          },
        ),
      );
      return get(id);
    },

    async update(actor: Actor, id: number, fields: PackageFields): Promise<DiscountPackage> {
      if (fields.discountPackageId !== undefined && fields.discountPackageId !== id) {
        throw badRequest(
          `discountPackageId ${fields.discountPackageId} in the body does not match ${id} in the address`,
        );
      }
      return audited(actor, id, 'discount-package-updated', async (tx) => {
        const updated = await tx.execute(sql`
          update discount_packages set name = ${fields.name}, description = ${fields.description}, updated_at = now()
          where discount_package_id = ${id} returning discount_package_id`);
        if (updated.rows.length === 0) throw notFound(`Discount package ${id}`);
      });
    },

    async remove(actor: Actor, id: number): Promise<void> {
      await catalogTransaction(db, (tx) =>
        recordChange(tx, discountPackageEntity, String(id), { actor, action: 'discount-package-deleted' }, async () => {
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
          const deleted = await tx
            .delete(discountPackages)
            .where(eq(discountPackages.discountPackageId, id))
            .returning();
          if (deleted.length === 0) throw notFound(`Discount package ${id}`);
        }),
      );
    },

    /**
     * Sets or clears (null) the package price of a product already in the package. The screen saves as the
     * administrator types: one administrator's saves of one price within a minute are one audit entry.
     */
    async setPrice(actor: Actor, change: PriceChange): Promise<DiscountPackage> {
      return audited(
        actor,
        change.discountPackageId,
        'package-price-changed',
        async (tx) => {
          const updated = await tx.execute(sql`
            update discount_package_products
            set price = ${change.price === null ? null : moneyText(change.price)}, updated_at = now()
            where discount_package_id = ${change.discountPackageId} and product_id = ${change.productId}
            returning product_id`);
          if (updated.rows.length === 0) {
            // Only now (the rare case) find out which of the three is missing.
            await assertPackageAndProduct(tx, change);
            throw notFound(`Product ${change.productId} in discount package ${change.discountPackageId}`);
          }
        },
        change.productId,
      );
    },

    async addProduct(actor: Actor, change: PriceChange): Promise<DiscountPackage> {
      return audited(actor, change.discountPackageId, 'package-product-added', async (tx) => {
        await assertPackageAndProduct(tx, change);
        const inserted = await tx.execute(sql`
          insert into discount_package_products (discount_package_id, product_id, price)
          values (${change.discountPackageId}, ${change.productId},
                  ${change.price === null ? null : moneyText(change.price)})
          on conflict do nothing returning product_id`);
        if (inserted.rows.length === 0)
          throw conflict(`Product ${change.productId} is already in this discount package`);
      });
    },

    async removeProduct(actor: Actor, key: { discountPackageId: number; productId: number }): Promise<DiscountPackage> {
      return audited(actor, key.discountPackageId, 'package-product-removed', async (tx) => {
        const deleted = await tx.execute(sql`
          delete from discount_package_products
          where discount_package_id = ${key.discountPackageId} and product_id = ${key.productId}
          returning product_id`);
        if (deleted.rows.length === 0)
          throw notFound(`Product ${key.productId} in discount package ${key.discountPackageId}`);
      });
    },
  };
}
