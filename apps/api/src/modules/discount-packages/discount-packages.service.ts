import { discountPackageInputSchema, type DiscountPackage, type DiscountPackageProductKey } from '@ums/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { MEMBERSHIP_PACKAGE_KEY } from '../../db/schema/index.js';
import { brokenForeignKey } from '../../plugins/errors.js';
import { badRequest, conflict, notFound } from '../../plugins/http-errors.js';
import { creationTransaction, packageTransaction, PRICE_CHANGED, type Actor, type Queryable } from '../audit/audit.js';
import { discountPackageEntity, recordStatesAtCommit } from '../audit/entities.js';
import { discountPackageRepository, type PackagePrice } from './discount-packages.repository.js';

type PackageFields = z.output<typeof discountPackageInputSchema>;

/** How many times a removal is tried while memberships take the package up, each time after the foreign key refused it. */
const REMOVAL_ATTEMPTS = 3;
const BUSY_PACKAGE = 'This discount package is being chosen for memberships right now. Please try again.';

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

  const usedBy = (users: string[]) =>
    conflict(
      `This discount package is used by ${users.length === 1 ? 'the membership' : 'the memberships'} ${users
        .map((name) => `"${name}"`)
        .join(', ')}. Choose another package for ${users.length === 1 ? 'it' : 'them'} first.`,
    );

  return {
    get,

    async create(actor: Actor, fields: PackageFields): Promise<DiscountPackage> {
      // One statement creates it and reads its answer (decision 039).
      return creationTransaction(db, async (tx) => {
        const { state, answer } = await repository.createAnswered(tx, fields);
        const id = String(answer.discountPackageId);
        await recordStatesAtCommit(
          tx,
          discountPackageEntity,
          id,
          { actor, action: 'discount-package-created' },
          null,
          state,
        );
        return answer;
      });
    },

    async update(actor: Actor, id: number, fields: PackageFields): Promise<DiscountPackage> {
      if (fields.discountPackageId !== undefined && fields.discountPackageId !== id) {
        throw badRequest(
          `discountPackageId ${fields.discountPackageId} in the body does not match ${id} in the address`,
        );
      }
      // One statement saves the fields and reads the package as it was and as it is (decision 039), under the
      // package's stripe of the catalog's lock (decision 040).
      return packageTransaction(db, id, async (tx) => {
        const saved = await repository.saveFields(tx, id, fields);
        if (!saved) throw notFound(`Discount package ${id}`);
        const change = { actor, action: 'discount-package-updated' };
        await recordStatesAtCommit(tx, discountPackageEntity, String(id), change, saved.before, saved.after);
        return saved.answer;
      });
    },

    async remove(actor: Actor, id: number): Promise<void> {
      // The package's stripe of the catalog's lock (decision 045). One statement removes it only when no membership
      // uses it, and reads it as it was (decision 039). A membership that takes it up after that statement's snapshot
      // holds its row until it commits, and the foreign key (ON DELETE RESTRICT) then refuses the removal: the removal
      // is tried afresh, and its statement then reads the memberships that use it now.
      for (let attempt = 1; ; attempt++) {
        try {
          await packageTransaction(db, id, async (tx) => {
            const { users, before } = await repository.removeAnswered(tx, id);
            if (users.length > 0) throw usedBy(users);
            if (!before) throw notFound(`Discount package ${id}`);
            const removed = { actor, action: 'discount-package-deleted' };
            await recordStatesAtCommit(tx, discountPackageEntity, String(id), removed, before, null);
          });
          return;
        } catch (error) {
          if (brokenForeignKey(error) !== MEMBERSHIP_PACKAGE_KEY) throw error;
          if (attempt === REMOVAL_ATTEMPTS) throw conflict(BUSY_PACKAGE);
        }
      }
    },

    /**
     * Sets or clears (null) the package price of a product already in the package. The screen saves as the
     * administrator types: one administrator's saves of one price within a minute are one audit entry.
     */
    async setPrice(actor: Actor, change: PackagePrice): Promise<DiscountPackage> {
      // Its package's stripe of the catalog's lock only (decision 036): saves in other packages go on beside it. One
      // statement saves the price and reads the package as it was, the lock keeping it so (decision 039).
      return packageTransaction(db, change.discountPackageId, async (tx) => {
        const saved = await repository.savePrice(tx, change);
        if (!saved) {
          // Only now (the rare case) find out which of the three is missing.
          await assertPackageAndProduct(tx, change);
          throw notFound(`Product ${change.productId} in discount package ${change.discountPackageId}`);
        }
        await recordStatesAtCommit(
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
      // One statement checks the package and the product, adds it and reads the package as it was (decision 039),
      // under the package's stripe of the catalog's lock (decision 040). The answer is read after the commit.
      const id = change.discountPackageId;
      await packageTransaction(db, id, async (tx) => {
        const { package: pkg, product, states } = await repository.addProduct(tx, change);
        if (!pkg) throw notFound(`Discount package ${id}`);
        if (!product) throw notFound(`Product ${change.productId}`);
        if (!states) throw conflict(`Product ${change.productId} is already in this discount package`);
        const added = { actor, action: 'package-product-added' };
        await recordStatesAtCommit(tx, discountPackageEntity, String(id), added, states.before, states.after);
      });
      return get(id);
    },

    async removeProduct(actor: Actor, key: { discountPackageId: number; productId: number }): Promise<DiscountPackage> {
      const id = key.discountPackageId;
      await packageTransaction(db, id, async (tx) => {
        const states = await repository.removeProduct(tx, key);
        if (!states) throw notFound(`Product ${key.productId} in discount package ${id}`);
        const removed = { actor, action: 'package-product-removed' };
        await recordStatesAtCommit(tx, discountPackageEntity, String(id), removed, states.before, states.after);
      });
      return get(id);
    },
  };
}
