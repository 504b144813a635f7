import { discountPackageInputSchema, type DiscountPackage, type DiscountPackageProductKey } from '@ums/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { badRequest, conflict, notFound } from '../../plugins/http-errors.js';
import {
  catalogTransaction,
  packagePriceTransaction,
  PRICE_CHANGED,
  type Actor,
  type Queryable,
} from '../audit/audit.js';
import { discountPackageEntity, recordChange, recordStates } from '../audit/entities.js';
import { membershipRepository } from '../memberships/memberships.repository.js';
import { discountPackageRepository, type PackagePrice } from './discount-packages.repository.js';

type PackageFields = z.output<typeof discountPackageInputSchema>;

export function createDiscountPackageService({ db }: { db: Database }) {
  const repository = discountPackageRepository;

  async function get(id: number): Promise<DiscountPackage> {
    const found = await repository.findById(db, id);
    if (!found) throw notFound(`Discount package ${id}`);
    return found;
  }

  async function assertPackageAndProduct(tx: Queryable, key: DiscountPackageProductKey) {
    const exists = await repository.packageAndProductExist(tx, {
      discountPackageId: Number(key.discountPackageId),
      productId: Number(key.productId),
    });
    if (!exists.pkg) throw notFound(`Discount package ${key.discountPackageId}`);
    if (!exists.product) throw notFound(`Product ${key.productId}`);
  }

  /** An audited write to one package, in a transaction that takes the catalog's lock first; answers the package. */
  async function audited(
    actor: Actor,
    id: number,
    action: string,
    write: (tx: Queryable) => Promise<unknown>,
  ): Promise<DiscountPackage> {
    await catalogTransaction(db, (tx) =>
      recordChange(tx, discountPackageEntity, String(id), { actor, action }, () => write(tx)),
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
            id = await repository.create(tx, fields);
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
      // One statement saves the fields and reads the package as it was and as it is (decision 039).
      return catalogTransaction(db, async (tx) => {
        const saved = await repository.saveFields(tx, id, fields);
        if (!saved) throw notFound(`Discount package ${id}`);
        const change = { actor, action: 'discount-package-updated' };
        await recordStates(tx, discountPackageEntity, String(id), change, saved.before, saved.after);
        return saved.answer;
      });
    },

    async remove(actor: Actor, id: number): Promise<void> {
      await catalogTransaction(db, (tx) =>
        recordChange(tx, discountPackageEntity, String(id), { actor, action: 'discount-package-deleted' }, async () => {
          const users = await membershipRepository.namesUsingPackage(tx, id);
          if (users.length > 0) {
            throw conflict(
              `This discount package is used by ${users.length === 1 ? 'the membership' : 'the memberships'} ${users
                .map((name) => `"${name}"`)
                .join(', ')}. Choose another package for ${users.length === 1 ? 'it' : 'them'} first.`,
            );
          }
          if (!(await repository.remove(tx, id))) throw notFound(`Discount package ${id}`);
        }),
      );
    },

    /**
     * Sets or clears (null) the package price of a product already in the package. The screen saves as the
     * administrator types: one administrator's saves of one price within a minute are one audit entry.
     */
    async setPrice(actor: Actor, change: PackagePrice): Promise<DiscountPackage> {
      // Its package's stripe of the catalog's lock only (decision 036): saves in other packages go on beside it. One
      // statement saves the price and reads the package as it was, the lock keeping it so (decision 039).
      return packagePriceTransaction(db, change.discountPackageId, async (tx) => {
        const saved = await repository.savePrice(tx, change);
        if (!saved) {
          // Only now (the rare case) find out which of the three is missing.
          await assertPackageAndProduct(tx, change);
          throw notFound(`Product ${change.productId} in discount package ${change.discountPackageId}`);
        }
        await recordStates(
          tx,
          discountPackageEntity,
          String(change.discountPackageId),
          { actor, action: PRICE_CHANGED, foldPrice: change.productId },
          saved.before,
          saved.after,
        );
        return saved.answer;
      });
    },

    async addProduct(actor: Actor, change: PackagePrice): Promise<DiscountPackage> {
      return audited(actor, change.discountPackageId, 'package-product-added', async (tx) => {
        await assertPackageAndProduct(tx, change);
        if (!(await repository.addProduct(tx, change)))
          throw conflict(`Product ${change.productId} is already in this discount package`);
      });
    },

    async removeProduct(actor: Actor, key: { discountPackageId: number; productId: number }): Promise<DiscountPackage> {
      return audited(actor, key.discountPackageId, 'package-product-removed', async (tx) => {
        if (!(await repository.removeProduct(tx, key)))
          throw notFound(`Product ${key.productId} in discount package ${key.discountPackageId}`);
      });
    },
  };
}
