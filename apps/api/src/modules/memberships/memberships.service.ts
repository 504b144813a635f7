import { membershipInputSchema, type Membership, type PromotionalProductLink } from '@ums/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { discountPackages, memberships, products, promotionalProducts } from '../../db/schema/index.js';
import { badRequest, notFound } from '../../plugins/http-errors.js';
import { catalogTransaction, type Actor, type Tx } from '../audit/audit.js';
import { membershipEntity, recordChange } from '../audit/entities.js';
import { MEMBERSHIP_FROM, MEMBERSHIP_ITEM } from './memberships.lists.js';

type MembershipFields = z.output<typeof membershipInputSchema>;

async function assertReferences(tx: Tx, fields: MembershipFields) {
  const product = await tx.query.products.findFirst({ where: eq(products.productId, fields.productId) });
  if (!product)
    throw badRequest(`Product ${fields.productId} does not exist`, { productId: ['Product does not exist'] });
  if (fields.discountPackageId !== null) {
    const pkg = await tx.query.discountPackages.findFirst({
      where: eq(discountPackages.discountPackageId, fields.discountPackageId),
    });
    if (!pkg) {
      throw badRequest(`Discount package ${fields.discountPackageId} does not exist`, {
        discountPackageId: ['Discount package does not exist'],
      });
    }
  }
}

const columns = (f: MembershipFields) => ({
  name: f.name,
  description: f.description,
  productId: f.productId,
  discountPackageId: f.discountPackageId,
  numberOfFreeEligibleItems: f.numberOfFreeEligibleItems,
  membershipLengthInMonths: f.membershipLengthInMonths,
});

export function createMembershipService({ db }: { db: Database }) {
  async function get(id: number, tx: Tx | Database = db): Promise<Membership> {
    const { rows } = await tx.execute<{ item: Membership }>(
      sql`select ${sql.raw(MEMBERSHIP_ITEM)} as item from ${sql.raw(MEMBERSHIP_FROM)} where m.membership_id = ${id}`,
    );
    if (!rows[0]) throw notFound(`Membership ${id}`);
    return rows[0].item;
  }

  async function assertProductsExist(tx: Tx | Database, ids: number[]) {
    const unique = [...new Set(ids)];
    const found = await tx.select({ id: products.productId }).from(products).where(inArray(products.productId, unique));
    const missing = unique.filter((id) => !found.some((f) => f.id === id));
    if (missing.length > 0)
      throw badRequest(`Unknown product ids: ${missing.join(', ')}`, { productId: ['Product does not exist'] });
  }

  async function assertMembershipsExist(tx: Tx | Database, ids: number[]) {
    const unique = [...new Set(ids)];
    const found = await tx
      .select({ id: memberships.membershipId })
      .from(memberships)
      .where(inArray(memberships.membershipId, unique));
    const missing = unique.filter((id) => !found.some((f) => f.id === id));
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
            const [created] = await tx.insert(memberships).values(columns(fields)).returning();
            id = created!.membershipId;
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
      return catalogTransaction(db, async (tx) => {
        await assertReferences(tx, fields);
        await recordChange(tx, membershipEntity, String(id), { actor, action: 'membership-updated' }, async () => {
          const updated = await tx
            .update(memberships)
            .set({ ...columns(fields), updatedAt: new Date() })
            .where(eq(memberships.membershipId, id))
            .returning({ id: memberships.membershipId });
          if (updated.length === 0) throw notFound(`Membership ${id}`);
        });
        return get(id, tx);
      });
    },

    async remove(actor: Actor, id: number): Promise<void> {
      await catalogTransaction(db, (tx) =>
        recordChange(tx, membershipEntity, String(id), { actor, action: 'membership-deleted' }, async () => {
          const deleted = await tx.delete(memberships).where(eq(memberships.membershipId, id)).returning();
          if (deleted.length === 0) throw notFound(`Membership ${id}`);
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
            () => tx.insert(promotionalProducts).values(added).onConflictDoNothing(),
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
            const deleted = await tx
              .delete(promotionalProducts)
              .where(
                and(
                  eq(promotionalProducts.membershipId, link.membershipId),
                  eq(promotionalProducts.productId, link.productId),
                ),
              )
              .returning();
            if (deleted.length === 0) {
              throw notFound(`Promotional product ${link.productId} of membership ${link.membershipId}`);
            }
          },
        ),
      );
    },
  };
}
