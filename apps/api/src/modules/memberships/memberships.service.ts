import { membershipInputSchema, type Membership, type PromotionalProductLink } from '@ums/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { badRequest, notFound } from '../../plugins/http-errors.js';
import { catalogTransaction, type Actor, type Queryable } from '../audit/audit.js';
import { membershipEntity, recordChange, recordStates } from '../audit/entities.js';
import { productRepository } from '../catalog/products.repository.js';
import { discountPackageRepository } from '../discount-packages/discount-packages.repository.js';
import { membershipRepository } from './memberships.repository.js';

type MembershipFields = z.output<typeof membershipInputSchema>;

const missingProduct = (id: number) =>
  badRequest(`Product ${id} does not exist`, { productId: ['Product does not exist'] });
const missingPackage = (id: number | null) =>
  badRequest(`Discount package ${id} does not exist`, { discountPackageId: ['Discount package does not exist'] });

async function assertReferences(tx: Queryable, fields: MembershipFields) {
  if ((await productRepository.missingIds(tx, [fields.productId])).length > 0) throw missingProduct(fields.productId);
  if (fields.discountPackageId !== null && !(await discountPackageRepository.exists(tx, fields.discountPackageId))) {
    throw missingPackage(fields.discountPackageId);
  }
}

export function createMembershipService({ db }: { db: Database }) {
  const repository = membershipRepository;

  async function get(id: number, tx: Queryable = db): Promise<Membership> {
    const membership = await repository.findById(tx, id);
    if (!membership) throw notFound(`Membership ${id}`);
    return membership;
  }

  async function assertProductsExist(tx: Queryable, ids: number[]) {
    const missing = await productRepository.missingIds(tx, ids);
    if (missing.length > 0)
      throw badRequest(`Unknown product ids: ${missing.join(', ')}`, { productId: ['Product does not exist'] });
  }

  async function assertMembershipsExist(tx: Queryable, ids: number[]) {
    const missing = await repository.missingIds(tx, ids);
    if (missing.length > 0) throw notFound(`Membership ${missing.join(', ')}`);
  }

  return {
    get,

    async create(actor: Actor, fields: MembershipFields): Promise<Membership> {
      return catalogTransaction(db, async (tx) => {
        await assertReferences(tx, fields);
        let id = 0;
        await recordChange(
          tx,
          membershipEntity,
          () => String(id),
          { actor, action: 'membership-created' },
          async () => {
            id = await repository.create(tx, fields);
          },
        );
        return get(id, tx);
      });
    },

    async update(actor: Actor, id: number, fields: MembershipFields): Promise<Membership> {
      if (fields.membershipId !== undefined && fields.membershipId !== id) {
        throw badRequest(`membershipId ${fields.membershipId} in the body does not match ${id} in the address`, {
          membershipId: ['Does not match the address'],
        });
      }
      // One statement checks the product and the package, saves, and reads the membership as it was and as it is
      // (decision 039).
      return catalogTransaction(db, async (tx) => {
        const { product, package: pkg, saved } = await repository.saveFields(tx, id, fields);
        if (!product) throw missingProduct(fields.productId);
        if (!pkg) throw missingPackage(fields.discountPackageId);
        if (!saved) throw notFound(`Membership ${id}`);
        const change = { actor, action: 'membership-updated' };
        await recordStates(tx, membershipEntity, String(id), change, saved.before, saved.after);
        return saved.answer;
      });
    },

    async remove(actor: Actor, id: number): Promise<void> {
      await catalogTransaction(db, (tx) =>
        recordChange(tx, membershipEntity, String(id), { actor, action: 'membership-deleted' }, async () => {
          if (!(await repository.remove(tx, id))) throw notFound(`Membership ${id}`);
        }),
      );
    },

    /** 404 unless the membership exists. */
    assertExists: (id: number) => assertMembershipsExist(db, [id]),

    /**
     * Adds all links in one transaction, all or nothing; links that already exist are left as they are. Each
     * membership's new links are one audit entry.
     */
    async addPromotional(actor: Actor, links: PromotionalProductLink[]): Promise<PromotionalProductLink[]> {
      return catalogTransaction(db, async (tx) => {
        await assertMembershipsExist(
          tx,
          links.map((l) => l.membershipId),
        );
        await assertProductsExist(
          tx,
          links.map((l) => l.productId),
        );
        for (const membershipId of new Set(links.map((l) => l.membershipId))) {
          const added = links.filter((l) => l.membershipId === membershipId);
          await recordChange(
            tx,
            membershipEntity,
            String(membershipId),
            { actor, action: 'promotional-products-added' },
            () => repository.addPromotional(tx, added),
          );
        }
        return links;
      });
    },

    async removePromotional(actor: Actor, link: PromotionalProductLink): Promise<void> {
      await catalogTransaction(db, (tx) =>
        recordChange(
          tx,
          membershipEntity,
          String(link.membershipId),
          { actor, action: 'promotional-product-removed' },
          async () => {
            if (!(await repository.removePromotional(tx, link))) {
              throw notFound(`Promotional product ${link.productId} of membership ${link.membershipId}`);
            }
          },
        ),
      );
    },
  };
}
