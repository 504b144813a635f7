import {
  membershipInputSchema,
  type Membership,
  type PromotionalProduct,
  type PromotionalProductLink,
} from '@ums/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { toMoney } from '../../db/money.js';
import { discountPackages, memberships, products, promotionalProducts } from '../../db/schema/index.js';
import { badRequest, notFound } from '../../plugins/http-errors.js';

type MembershipFields = z.output<typeof membershipInputSchema>;
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

const withRelations = {
  product: true,
  discountPackage: true,
  promotionalProducts: { with: { product: true } },
} as const;

type MembershipRow = NonNullable<Awaited<ReturnType<Database['query']['memberships']['findFirst']>>> & {
  product: typeof products.$inferSelect;
  discountPackage: typeof discountPackages.$inferSelect | null;
  promotionalProducts: { product: typeof products.$inferSelect }[];
};

function toMembership(row: MembershipRow): Membership {
  return {
    membershipId: row.membershipId,
    name: row.name,
    description: row.description,
    productId: row.productId,
    productName: row.product.name,
    productRetailPrice: toMoney(row.product.retailPrice),
    discountPackageId: row.discountPackageId,
    discountPackageName: row.discountPackage?.name ?? null,
    numberOfFreeEligibleItems: row.numberOfFreeEligibleItems,
    membershipLengthInMonths: row.membershipLengthInMonths,
    promotionalProducts: row.promotionalProducts
      .map((p) => ({ productId: p.product.productId, name: p.product.name }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

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
    const row = await tx.query.memberships.findFirst({
      where: eq(memberships.membershipId, id),
      with: withRelations,
    });
    if (!row) throw notFound(`Membership ${id}`);
    return toMembership(row as MembershipRow);
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
    /** Every membership with its product, package name and promotional products, in one query. */
    async list(): Promise<Membership[]> {
      const rows = await db.query.memberships.findMany({
        with: withRelations,
        orderBy: [asc(memberships.name), asc(memberships.membershipId)],
      });
      return rows.map((r) => toMembership(r as MembershipRow));
    },

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
      return db.transaction(async (tx) => {
        const [locked] = await tx
          .select({ id: memberships.membershipId })
          .from(memberships)
          .where(eq(memberships.membershipId, id))
          .for('update');
        if (!locked) throw notFound(`Membership ${id}`);
        await assertReferences(tx, fields);
        await tx
          .update(memberships)
          .set({ ...columns(fields), updatedAt: new Date() })
          .where(eq(memberships.membershipId, id));
        return get(id, tx);
      });
    },

    async remove(id: number): Promise<void> {
      const deleted = await db.delete(memberships).where(eq(memberships.membershipId, id)).returning();
      if (deleted.length === 0) throw notFound(`Membership ${id}`);
    },

    async listPromotional(membershipId?: number): Promise<PromotionalProduct[]> {
      if (membershipId !== undefined) await assertMembershipsExist(db, [membershipId]);
      const rows = await db
        .select({
          productId: promotionalProducts.productId,
          membershipId: promotionalProducts.membershipId,
          productName: products.name,
          membershipName: memberships.name,
        })
        .from(promotionalProducts)
        .innerJoin(products, eq(products.productId, promotionalProducts.productId))
        .innerJoin(memberships, eq(memberships.membershipId, promotionalProducts.membershipId))
        .where(membershipId === undefined ? undefined : eq(promotionalProducts.membershipId, membershipId))
        .orderBy(asc(memberships.name), asc(products.name));
      return rows;
    },

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
