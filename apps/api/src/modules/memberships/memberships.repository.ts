import type { Membership, PromotionalProductLink } from '@ums/contracts';
import { and, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  columnList,
  insertSelect,
  namedStatement,
  placeholders,
  statementBuilder as builder,
} from '../../db/client.js';
import { discountPackages, memberships, products, promotionalProducts } from '../../db/schema/index.js';
import type { MembershipTx, Queryable } from '../audit/audit.js';
import { applyState, type State } from '../audit/states.js';
import { jsonObject } from '../lists/list-statements.js';
import {
  membershipFrom,
  membershipFromUpdated,
  membershipItem,
  membershipItemTable,
  membershipKey,
} from './memberships.lists.js';

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
 * The membership's whole state for the audit trail, as one JSON value (one row, none when there is no membership): a
 * statement's scalar subquery as it is. A join, not a subquery: drizzle writes a single table's columns unqualified
 * in selected expressions.
 */
const stateQuery = (q: Pick<Queryable, 'select'>, id: number | SQL) =>
  q
    .select({
      state: jsonObject<MembershipState>({
        name: memberships.name,
        description: memberships.description,
        productId: memberships.productId,
        discountPackageId: memberships.discountPackageId,
        numberOfFreeEligibleItems: memberships.numberOfFreeEligibleItems,
        membershipLengthInMonths: memberships.membershipLengthInMonths,
        promotionalProducts: promotionalState,
      }),
    })
    .from(memberships)
    .leftJoin(promotionalProducts, eq(promotionalProducts.membershipId, memberships.membershipId))
    .where(eq(memberships.membershipId, id))
    .groupBy(memberships.membershipId);

const savedId = sql`${sql.placeholder('membershipId')}`;
const saved = placeholders(
  'name',
  'description',
  'productId',
  'discountPackageId',
  'numberOfFreeEligibleItems',
  'membershipLengthInMonths',
) satisfies Record<keyof MembershipFields, SQL>;
const productExists = sql`exists (select 1 from ${products} where ${products.productId} = ${saved.productId})`;
const packageExistsOrNone = sql`(${saved.discountPackageId}::int4 is null or exists (
  select 1 from ${discountPackages} where ${discountPackages.discountPackageId} = ${saved.discountPackageId}))`;

/**
 * A membership's fields saved (`saveFields`), as one named prepared statement (decision 039): the update is a CTE
 * named as the answer's table (`membershipItemTable`), made only when the product and the package it names exist, so
 * the answer is read from the row it returns and the state before from the table as it was.
 */
const saveFields = namedStatement<{
  product: boolean;
  package: boolean;
  before: MembershipState | null;
  answer: Membership | null;
}>(
  'membership_fields_save',
  sql`with ${membershipItemTable} as ${builder
    .update(memberships)
    .set({ ...saved, updatedAt: sql`now()` })
    .where(and(eq(memberships.membershipId, savedId), productExists, packageExistsOrNone))
    .returning()}
  select ${productExists} as product, ${packageExistsOrNone} as package,
         ${stateQuery(builder, savedId)} as before,
         (select ${membershipItem} from ${membershipFromUpdated}) as answer`,
);

/**
 * A membership created (`createAnswered`), as one named prepared statement (decision 039): the insert is a CTE named
 * as the answer's table, made only when the product and the package it names exist, and the answer is read from the
 * row it returns.
 */
const createMembership = namedStatement<{ product: boolean; package: boolean; answer: Membership | null }>(
  'membership_create',
  sql`with ${membershipItemTable} as (
    ${insertSelect(
      memberships,
      (Object.keys(saved) as (keyof MembershipFields)[]).map((key) => [memberships[key], saved[key]] as const),
    )}
    where ${productExists} and ${packageExistsOrNone}
    returning *)
  select ${productExists} as product, ${packageExistsOrNone} as package,
         (select ${membershipItem} from ${membershipFromUpdated}) as answer`,
);

/**
 * A membership removed (`removeAnswered`), as one named prepared statement (decision 039): the delete is a CTE, so the
 * statement's read of the state is the membership as it was (its promotional links go with it).
 */
const removeMembership = namedStatement<{ before: MembershipState | null }>(
  'membership_remove',
  sql`with removed as ${builder
    .delete(memberships)
    .where(eq(memberships.membershipId, savedId))
    .returning({ id: memberships.membershipId })}
  select case when exists (select 1 from removed) then ${stateQuery(builder, savedId)} end as before`,
);

const linked = placeholders('membershipId', 'productIds', 'productId');
const membershipExists = sql`exists (select 1 from ${memberships}
  where ${memberships.membershipId} = ${linked.membershipId}::int4)`;
/**
 * Promotional products added to one membership (`addPromotionalOf`), as one named prepared statement (decision 039):
 * the insert is a CTE, made only when the membership and every product exist (links there already are left as they
 * are), and the statement reads the membership's state as it was and the products that do not exist, in the order
 * given.
 */
const addPromotional = namedStatement<{
  membership: boolean;
  missing: number[];
  added: number[];
  before: MembershipState | null;
}>(
  'membership_promotional_add',
  sql`with wanted as (
    select product_id, n from unnest(${linked.productIds}::int4[]) with ordinality as w (product_id, n)),
  missing as (
    select w.product_id, w.n from wanted w
    where not exists (select 1 from ${products} where ${products.productId} = w.product_id)),
  added as (
    insert into ${promotionalProducts} (${columnList([promotionalProducts.membershipId, promotionalProducts.productId])})
    select ${linked.membershipId}::int4, product_id from wanted
    where ${membershipExists} and not exists (select 1 from missing)
    on conflict do nothing
    returning ${sql.identifier(promotionalProducts.productId.name)} as product_id)
  select ${membershipExists} as membership,
         (select coalesce(array_agg(product_id order by n), '{}') from missing) as missing,
         (select coalesce(array_agg(product_id), '{}') from added) as added,
         ${stateQuery(builder, sql`${linked.membershipId}::int4`)} as before`,
);

/**
 * A promotional link removed (`removePromotionalOf`), as one named prepared statement (decision 039): the delete is a
 * CTE, so the statement reads the membership's state as it was.
 */
const removePromotional = namedStatement<{ removed: boolean; before: MembershipState | null }>(
  'membership_promotional_remove',
  sql`with removed as ${builder
    .delete(promotionalProducts)
    .where(
      and(
        eq(promotionalProducts.membershipId, sql`${linked.membershipId}::int4`),
        eq(promotionalProducts.productId, sql`${linked.productId}::int4`),
      ),
    )
    .returning({ id: promotionalProducts.productId })}
  select exists (select 1 from removed) as removed,
         ${stateQuery(builder, sql`${linked.membershipId}::int4`)} as before`,
);

/** A membership's answer and its audit state, read by id: named prepared statements, planned once (decision 039). */
const byId = sql.placeholder('id');
const findById = namedStatement<{ item: Membership }>(
  'membership_by_id',
  sql`select ${membershipItem} as item from ${membershipFrom} where ${membershipKey} = ${byId}`,
);
const readState = namedStatement<{ state: MembershipState }>(
  'membership_state',
  sql`select ${stateQuery(builder, sql`${byId}`)} as state`,
);

/**
 * Every read and write of the memberships and their promotional links, and the audit trail's reads and restores of
 * a membership. Each takes the executor it runs on (the caller's transaction); rules live in the service.
 */
export const membershipRepository = {
  /** One membership as the contract answers it (the list's item), or null. */
  async findById(q: Queryable, id: number): Promise<Membership | null> {
    const [row] = await findById(q, { id });
    return row?.item ?? null;
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

  /**
   * Saves a membership's fields when the product and the package it names exist, in one statement (the caller holds
   * the membership's stripe of the catalog's lock, the type says so): whether each exists, and the membership's state
   * before and after and its answer after (null when there is no such membership, or nothing was saved).
   */
  async saveFields(
    q: MembershipTx,
    id: number,
    fields: MembershipFields,
  ): Promise<{
    product: boolean;
    package: boolean;
    saved: { before: MembershipState; after: MembershipState; answer: Membership } | null;
  }> {
    const [row] = await saveFields(q, { membershipId: id, ...fieldsOf(fields) });
    const { product, package: pkg, before, answer } = row!;
    return {
      product,
      package: pkg,
      saved: before === null || answer === null ? null : { before, after: { ...before, ...fieldsOf(answer) }, answer },
    };
  },

  /**
   * Creates a membership when the product and the package it names exist, in one statement: whether each exists, and
   * the new membership's answer and audit state (null when nothing was made).
   */
  async createAnswered(
    q: Queryable,
    fields: MembershipFields,
  ): Promise<{ product: boolean; package: boolean; created: { state: MembershipState; answer: Membership } | null }> {
    const [row] = await createMembership(q, { ...fieldsOf(fields) });
    const { product, package: pkg, answer } = row!;
    return {
      product,
      package: pkg,
      created: answer === null ? null : { state: { ...fieldsOf(answer), promotionalProducts: {} }, answer },
    };
  },

  /** Removes a membership in one statement and answers its audit state as it was, or null when there was none. */
  async removeAnswered(q: MembershipTx, id: number): Promise<MembershipState | null> {
    const [row] = await removeMembership(q, { membershipId: id });
    return row?.before ?? null;
  },

  /**
   * Adds promotional products to one membership in one statement, when it and every product exist (the caller holds
   * the membership's lock): whether it exists, the products that do not (in the order given), and its state before
   * and after (null when nothing was added).
   */
  async addPromotionalOf(
    q: MembershipTx,
    membershipId: number,
    productIds: number[],
  ): Promise<{
    membership: boolean;
    missing: number[];
    states: { before: MembershipState; after: MembershipState } | null;
  }> {
    const [row] = await addPromotional(q, { membershipId, productIds: `{${productIds.join(',')}}` });
    const { membership, missing, added, before } = row!;
    const states =
      added.length === 0 || before === null
        ? null
        : {
            before,
            after: applyState(before, {
              promotionalProducts: Object.fromEntries(added.map((id) => [String(id), true])),
            }),
          };
    return { membership, missing, states };
  },

  /**
   * Removes a promotional link in one statement (the caller holds the membership's lock): the membership's state
   * before and after, or null when there was no such link.
   */
  async removePromotionalOf(
    q: MembershipTx,
    link: PromotionalProductLink,
  ): Promise<{ before: MembershipState; after: MembershipState } | null> {
    const [row] = await removePromotional(q, { membershipId: link.membershipId, productId: link.productId });
    const { removed, before } = row!;
    if (!removed || before === null) return null;
    return {
      before,
      after: applyState(before, { promotionalProducts: { [String(link.productId)]: null } }),
    };
  },

  /** Adds links; those that already exist are left as they are (a revert's restore). */
  async addPromotional(q: Queryable, links: PromotionalProductLink[]): Promise<void> {
    if (links.length === 0) return;
    await q
      .insert(promotionalProducts)
      .values(links.map(({ membershipId, productId }) => ({ membershipId, productId })))
      .onConflictDoNothing();
  },

  /** The membership's whole state for the audit trail (one statement), or null when there is none. */
  async readState(q: Queryable, id: number): Promise<MembershipState | null> {
    const [row] = await readState(q, { id });
    return row?.state ?? null;
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
