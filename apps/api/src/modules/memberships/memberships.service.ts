import {
  membershipInputSchema,
  type Membership,
  type PromotionalProduct,
  type PromotionalProductLink,
} from '@ums/contracts';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { toMoney } from '../../db/money.js';
import { discountPackages, memberships, products, promotionalProducts } from '../../db/schema/index.js';
import { badRequest, notFound } from '../../plugins/http-errors.js';

type MembershipFields = z.output<typeof membershipInputSchema>;
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

type MembershipRow = {
  membership_id: number;
  name: string;
  description: string | null;
  product_id: number;
  product_name: string;
  product_retail_price: string;
  discount_package_id: number | null;
  discount_package_name: string | null;
  number_of_free_eligible_items: number;
  membership_length_in_months: number;
  promotional_products: { productId: number; name: string }[];
};

/**
 * Memberships with product, package name and promotional products (sorted by name) in one statement; PostgreSQL
 * builds the nested lists, which keeps the 500-membership list fast (see bench/results).
 */
function membershipsQuery(where: SQL | undefined) {
  return sql`
    select m.membership_id, m.name, m.description, m.product_id,
           p.name as product_name, p.retail_price as product_retail_price,
           m.discount_package_id, dp.name as discount_package_name,
           m.number_of_free_eligible_items, m.membership_length_in_months,
           coalesce((
             select json_agg(json_build_object('productId', pp.product_id, 'name', pr.name)
                             order by lower(pr.name), pr.name, pr.product_id)
             from promotional_products pp join products pr on pr.product_id = pp.product_id
             where pp.membership_id = m.membership_id
           ), '[]'::json) as promotional_products
    from memberships m
    join products p on p.product_id = m.product_id
    left join discount_packages dp on dp.discount_package_id = m.discount_package_id
    ${where ? sql`where ${where}` : sql``}
    order by m.name, m.membership_id`;
}

function toMembership(row: MembershipRow): Membership {
  return {
    membershipId: row.membership_id,
    name: row.name,
    description: row.description,
    productId: row.product_id,
    productName: row.product_name,
    productRetailPrice: toMoney(row.product_retail_price),
    discountPackageId: row.discount_package_id,
    discountPackageName: row.discount_package_name,
    numberOfFreeEligibleItems: row.number_of_free_eligible_items,
    membershipLengthInMonths: row.membership_length_in_months,
    promotionalProducts: row.promotional_products,
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
    const { rows } = await tx.execute<MembershipRow>(membershipsQuery(sql`m.membership_id = ${id}`));
    if (!rows[0]) throw notFound(`Membership ${id}`);
    return toMembership(rows[0]);
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
      const { rows } = await db.execute<MembershipRow>(membershipsQuery(undefined));
      return rows.map(toMembership);
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
