import { membershipInputSchema, type Membership, type PromotionalProductLink } from '@ums/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { MEMBERSHIP_PACKAGE_KEY } from '../../db/schema/index.js';
import { brokenForeignKey } from '../../plugins/errors.js';
import { badRequest, notFound } from '../../plugins/http-errors.js';
import { creationTransaction, membershipTransaction, type Actor, type Queryable } from '../audit/audit.js';
import { membershipEntity, recordStatesAtCommit } from '../audit/entities.js';
import { productRepository } from '../catalog/products.repository.js';
import { membershipRepository } from './memberships.repository.js';

type MembershipFields = z.output<typeof membershipInputSchema>;

const missingProduct = (id: number) =>
  badRequest(`Product ${id} does not exist`, { productId: ['Product does not exist'] });
const missingPackage = (id: number | null) =>
  badRequest(`Discount package ${id} does not exist`, { discountPackageId: ['Discount package does not exist'] });

/**
 * A membership's write whose package is removed after the write's statement found it (a removal takes only the
 * package's stripe, decision 045): the foreign key refuses the write once the removal commits, answered as the
 * package missing, as the statement itself answers when the package was already gone.
 */
async function whilePackageStands<T>(discountPackageId: number | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (brokenForeignKey(error) === MEMBERSHIP_PACKAGE_KEY) throw missingPackage(discountPackageId);
    throw error;
  }
}

export function createMembershipService({ db }: { db: Database }) {
  const repository = membershipRepository;

  async function get(id: number): Promise<Membership> {
    const membership = await repository.findById(db, id);
    if (!membership) throw notFound(`Membership ${id}`);
    return membership;
  }

  const unknownProducts = (missing: number[]) =>
    badRequest(`Unknown product ids: ${missing.join(', ')}`, { productId: ['Product does not exist'] });

  async function assertProductsExist(tx: Queryable, ids: number[]) {
    const missing = await productRepository.missingIds(tx, ids);
    if (missing.length > 0) throw unknownProducts(missing);
  }

  async function assertMembershipsExist(tx: Queryable, ids: number[]) {
    const missing = await repository.missingIds(tx, ids);
    if (missing.length > 0) throw notFound(`Membership ${missing.join(', ')}`);
  }

  return {
    get,

    async create(actor: Actor, fields: MembershipFields): Promise<Membership> {
      // One statement checks the product and the package, creates, and reads the answer (decision 039).
      return whilePackageStands(fields.discountPackageId, () =>
        creationTransaction(db, async (tx) => {
          const { product, package: pkg, created } = await repository.createAnswered(tx, fields);
          if (!product) throw missingProduct(fields.productId);
          if (!pkg) throw missingPackage(fields.discountPackageId);
          const id = String(created!.answer.membershipId);
          await recordStatesAtCommit(
            tx,
            membershipEntity,
            id,
            { actor, action: 'membership-created' },
            null,
            created!.state,
          );
          return created!.answer;
        }),
      );
    },

    async update(actor: Actor, id: number, fields: MembershipFields): Promise<Membership> {
      if (fields.membershipId !== undefined && fields.membershipId !== id) {
        throw badRequest(`membershipId ${fields.membershipId} in the body does not match ${id} in the address`, {
          membershipId: ['Does not match the address'],
        });
      }
      // One statement checks the product and the package, saves, and reads the membership as it was and as it is
      // (decision 039), under the membership's stripe of the catalog's lock (decision 040).
      return whilePackageStands(fields.discountPackageId, () =>
        membershipTransaction(db, id, async (tx) => {
          const { product, package: pkg, saved } = await repository.saveFields(tx, id, fields);
          if (!product) throw missingProduct(fields.productId);
          if (!pkg) throw missingPackage(fields.discountPackageId);
          if (!saved) throw notFound(`Membership ${id}`);
          const change = { actor, action: 'membership-updated' };
          await recordStatesAtCommit(tx, membershipEntity, String(id), change, saved.before, saved.after);
          return saved.answer;
        }),
      );
    },

    async remove(actor: Actor, id: number): Promise<void> {
      // One statement removes it and reads it as it was (decision 039).
      await membershipTransaction(db, id, async (tx) => {
        const before = await repository.removeAnswered(tx, id);
        if (!before) throw notFound(`Membership ${id}`);
        await recordStatesAtCommit(
          tx,
          membershipEntity,
          String(id),
          { actor, action: 'membership-deleted' },
          before,
          null,
        );
      });
    },

    /** 404 unless the membership exists. */
    assertExists: (id: number) => assertMembershipsExist(db, [id]),

    /**
     * Adds all links in one transaction, all or nothing; links that already exist are left as they are. Each
     * membership's new links are one audit entry.
     */
    async addPromotional(actor: Actor, links: PromotionalProductLink[]): Promise<PromotionalProductLink[]> {
      const ids = links.map((l) => l.membershipId);
      return membershipTransaction(db, ids, async (tx) => {
        const each = [...new Set(ids)];
        // Links of several memberships: all of them and all products are checked before any is changed.
        if (each.length > 1) {
          await assertMembershipsExist(tx, ids);
          await assertProductsExist(
            tx,
            links.map((l) => l.productId),
          );
        }
        // One statement per membership checks it and its products, adds the links and reads it as it was (decision
        // 039); its new links are one audit entry.
        for (const membershipId of each) {
          const productIds = [...new Set(links.filter((l) => l.membershipId === membershipId).map((l) => l.productId))];
          const { membership, missing, states } = await repository.addPromotionalOf(tx, membershipId, productIds);
          if (!membership) throw notFound(`Membership ${membershipId}`);
          if (missing.length > 0) throw unknownProducts(missing);
          if (!states) continue;
          const added = { actor, action: 'promotional-products-added' };
          await recordStatesAtCommit(tx, membershipEntity, String(membershipId), added, states.before, states.after);
        }
        return links;
      });
    },

    async removePromotional(actor: Actor, link: PromotionalProductLink): Promise<void> {
      // One statement removes the link and reads the membership as it was (decision 039).
      await membershipTransaction(db, link.membershipId, async (tx) => {
        const states = await repository.removePromotionalOf(tx, link);
        if (!states) throw notFound(`Promotional product ${link.productId} of membership ${link.membershipId}`);
        const removed = { actor, action: 'promotional-product-removed' };
        await recordStatesAtCommit(
          tx,
          membershipEntity,
          String(link.membershipId),
          removed,
          states.before,
          states.after,
        );
      });
    },
  };
}
