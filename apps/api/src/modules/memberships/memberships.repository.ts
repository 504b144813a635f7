import type { Membership, PromotionalProductLink } from '@ums/contracts';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { memberships, promotionalProducts } from '../../db/schema/index.js';
import type { Queryable } from '../audit/audit.js';
import type { State } from '../audit/states.js';
import { membershipFrom, membershipItem, membershipKey } from './memberships.lists.js';

/** A membership's fields as the administrator saves them. */
export interface MembershipFields {
  name: string;
  description: string | null;
  productId: number;
  discountPackageId: number | null;
  numberOfFreeEligibleItems: number;
  membershipLengthInMonths: number;
}

/** A membership as the audit trail records it: its fields and its promotional products. */
export interface MembershipState extends State, MembershipFields {
  /** Product id -> true, for each promotional product. */
  promotionalProducts: Record<string, true>;
}

const fieldsOf = (f: MembershipFields): MembershipFields => ({
  name: f.name,
  description: f.description,
  productId: f.productId,
  discountPackageId: f.discountPackageId,
  numberOfFreeEligibleItems: f.numberOfFreeEligibleItems,
  membershipLengthInMonths: f.membershipLengthInMonths,
});

/** The membership's promotional products as the audit's collection (product id -> true), over the joined links. */
const promotionalState = sql<Record<string, true>>`coalesce(
  json_object_agg(${promotionalProducts.productId}::text, true order by ${promotionalProducts.productId})
    filter (where ${promotionalProducts.productId} is not null), '{}'::json)`;

/**
 * Every read and write of the memberships and their promotional links, and the audit trail's reads and restores of
 * a membership. Each takes the executor it runs on (the caller's transaction); rules live in the service.
 */
export const membershipRepository = {
  /** One membership as the contract answers it (the list's item), or null. */
  async findById(q: Queryable, id: number): Promise<Membership | null> {
    const { rows } = await q.execute<{ item: Membership }>(
      sql`select ${membershipItem} as item from ${membershipFrom} where ${membershipKey} = ${id}`,
    );
    return rows[0]?.item ?? null;
  },

  /** Which of `ids` name no membership (each once). */
  async missingIds(q: Queryable, ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    const found = await q
      .select({ id: memberships.membershipId })
      .from(memberships)
      .where(inArray(memberships.membershipId, unique));
    return unique.filter((id) => !found.some((row) => row.id === id));
  },

  /** Names of the memberships that use a package, by name. */
  async namesUsingPackage(q: Queryable, packageId: number): Promise<string[]> {
    const rows = await q
      .select({ name: memberships.name })
      .from(memberships)
      .where(eq(memberships.discountPackageId, packageId))
      .orderBy(memberships.name);
    return rows.map((row) => row.name);
  },

  /** Answers the new membership's id. */
  async create(q: Queryable, fields: MembershipFields): Promise<number> {
    const [created] = await q.insert(memberships).values(fieldsOf(fields)).returning({ id: memberships.membershipId });
    return created!.id;
  },

  /** False when there is no such membership. */
  async update(q: Queryable, id: number, fields: MembershipFields): Promise<boolean> {
    const updated = await q
      .update(memberships)
      .set({ ...fieldsOf(fields), updatedAt: new Date() })
      .where(eq(memberships.membershipId, id))
      .returning({ id: memberships.membershipId });
    return updated.length > 0;
  },

  /** False when there is no such membership. */
  async remove(q: Queryable, id: number): Promise<boolean> {
    const deleted = await q
      .delete(memberships)
      .where(eq(memberships.membershipId, id))
      .returning({ id: memberships.membershipId });
    return deleted.length > 0;
  },

  /** Adds links; those that already exist are left as they are. */
  async addPromotional(q: Queryable, links: PromotionalProductLink[]): Promise<void> {
    if (links.length === 0) return;
    await q
      .insert(promotionalProducts)
      .values(links.map(({ membershipId, productId }) => ({ membershipId, productId })))
      .onConflictDoNothing();
  },

  /** False when there was no such link. */
  async removePromotional(q: Queryable, link: PromotionalProductLink): Promise<boolean> {
    const deleted = await q
      .delete(promotionalProducts)
      .where(
        and(eq(promotionalProducts.membershipId, link.membershipId), eq(promotionalProducts.productId, link.productId)),
      )
      .returning({ id: promotionalProducts.productId });
    return deleted.length > 0;
  },

  /**
   * The membership's whole state for the audit trail (one statement), or null when there is none. A join, not a
   * subquery: drizzle writes a single table's columns unqualified in selected expressions.
   */
  async readState(q: Queryable, id: number): Promise<MembershipState | null> {
    const [row] = await q
      .select({
        name: memberships.name,
        description: memberships.description,
        productId: memberships.productId,
        discountPackageId: memberships.discountPackageId,
        numberOfFreeEligibleItems: memberships.numberOfFreeEligibleItems,
        membershipLengthInMonths: memberships.membershipLengthInMonths,
        promotionalProducts: promotionalState,
      })
      .from(memberships)
      .leftJoin(promotionalProducts, eq(promotionalProducts.membershipId, memberships.membershipId))
      .where(eq(memberships.membershipId, id))
      .groupBy(memberships.membershipId);
    return row ?? null;
  },

  /**
   * Makes the membership look like `target` (null: removes it), `current` being its state now: a membership removed
   * since comes back under its own id, and its promotional links become exactly the target's.
   */
  async restoreState(
    q: Queryable,
    id: number,
    target: MembershipState | null,
    current: MembershipState | null,
  ): Promise<void> {
    if (target === null) {
      await q.delete(memberships).where(eq(memberships.membershipId, id));
      return;
    }
    if (current === null) {
      await q
        .insert(memberships)
        .overridingSystemValue()
        .values({ membershipId: id, ...fieldsOf(target) });
    } else {
      await q
        .update(memberships)
        .set({ ...fieldsOf(target), updatedAt: sql`now()` })
        .where(eq(memberships.membershipId, id));
    }
    const wanted = Object.keys(target.promotionalProducts ?? {}).map(Number);
    await q
      .delete(promotionalProducts)
      .where(and(eq(promotionalProducts.membershipId, id), notInArray(promotionalProducts.productId, wanted)));
    await membershipRepository.addPromotional(
      q,
      wanted.map((productId) => ({ membershipId: id, productId })),
    );
  },
};
