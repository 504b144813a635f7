import { membershipInputSchema, type Membership, type PromotionalProductLink } from '@ums/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { discountPackages, memberships, products, promotionalProducts } from '../../db/schema/index.js';
import { badRequest, notFound } from '../../plugins/http-errors.js';
import { MEMBERSHIP_FROM, MEMBERSHIP_ITEM } from './memberships.lists.js';

type MembershipFields = z.output<typeof membershipInputSchema>;
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

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

    async create(fields: MembershipFields): Promise<Membership> {
      return db.transaction(async (tx) => {
        await assertReferences(tx, fields);
        const [created] = await tx.insert(memberships).values(columns(fields)).returning();
        return get(created!.membershipId, tx);
      });
    },

    async update(id: number, fields: MembershipFields): Promise<Membership> {
      if (fields.membershipId !== undefined && fields.membershipId !== id) {
        throw badRequest(`membershipId ${fields.membershipId} in the body does not match ${id} in the address`, {
          membershipId: ['Does not match the address'],
        });
      }
      // No row lock before the write: every catalog write takes the catalog version's lock first (its statement
      // trigger), and a row locked ahead of it would let two writers wait for each other.
      return db.transaction(async (tx) => {
        await assertReferences(tx, fields);
        const updated = await tx
          .update(memberships)
          .set({ ...columns(fields), updatedAt: new Date() })
          .where(eq(memberships.membershipId, id))
          .returning({ id: memberships.membershipId });
        if (updated.length === 0) throw notFound(`Membership ${id}`);
        return get(id, tx);
      });
    },

    async remove(id: number): Promise<void> {
      const deleted = await db.delete(memberships).where(eq(memberships.membershipId, id)).returning();
      if (deleted.length === 0) throw notFound(`Membership ${id}`);
    },

    /** 404 unless the membership exists. */
    assertExists: (id: number) => assertMembershipsExist(db, [id]),

    /** Adds all links in one transaction, all or nothing; links that already exist are left as they are. */
    async addPromotional(links: PromotionalProductLink[]): Promise<PromotionalProductLink[]> {
      return db.transaction(async (tx) => {
        await assertMembershipsExist(
          tx,
          links.map((l) => l.membershipId),
        );
        await assertProductsExist(
          tx,
          links.map((l) => l.productId),
        );
        await tx.insert(promotionalProducts).values(links).onConflictDoNothing();
        return links;
      });
    },

    async removePromotional(link: PromotionalProductLink): Promise<void> {
      const deleted = await db
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
  };
}
