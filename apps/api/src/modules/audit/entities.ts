import { AUDIT_MESSAGES } from '@ums/contracts/audit';
import { sql } from 'drizzle-orm';
import { conflict } from '../../plugins/http-errors.js';
import { moneyText } from '../../db/money.js';
import { appendAudit, auditPriceSave, lockCatalog, type Actor, type AuditEntryInput, type Executor } from './audit.js';
import { diffStates, type State } from './states.js';

/**
 * An entity the audit trail records and can revert: how to read its whole state and how to make it look like a
 * state again. Writers read the state before and after their change and record the difference.
 */
export interface AuditedEntity {
  entity: string;
  /** Takes the lock its writers take first (before anything is read), so a read state is the one being changed. */
  lock(tx: Executor): Promise<void>;
  read(tx: Executor, id: string): Promise<State | null>;
  /** Makes the entity look like `target` (null: removes it); `current` is its state now. */
  write(tx: Executor, id: string, target: State | null, current: State | null, actor: Actor): Promise<void>;
  /** The entity's name, and what the states refer to by id (the entry keeps their names). */
  names(
    tx: Executor,
    id: string,
    states: (State | null)[],
  ): Promise<Pick<AuditEntryInput, 'label' | 'labels' | 'refs'>>;
}

const ids = (value: unknown) => Object.keys((value as Record<string, unknown> | undefined) ?? {});
const nameOf = (states: (State | null)[]) =>
  (states.find((s) => s !== null && typeof s['name'] === 'string')?.['name'] as string | undefined) ?? null;
const intArray = (list: string[]) => `{${list.map(Number).join(',')}}`;

/** A revert may bring back references to products or a package removed since: refused in words, not by a key. */
async function assertStillThere(tx: Executor, productIds: string[], packageId: number | null = null) {
  const { rows } = await tx.execute<{ id: number }>(
    sql`select product_id as id from products where product_id = any(${intArray(productIds)}::int4[])`,
  );
  const missing = [...new Set(productIds.map(Number))].filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) throw conflict(AUDIT_MESSAGES.productsGone(missing));
  if (packageId === null) return;
  const found = await tx.execute(sql`select 1 from discount_packages where discount_package_id = ${packageId}`);
  if (found.rows.length === 0) throw conflict(AUDIT_MESSAGES.packageGone(packageId));
}

export interface MembershipState extends State {
  name: string;
  description: string | null;
  productId: number;
  discountPackageId: number | null;
  numberOfFreeEligibleItems: number;
  membershipLengthInMonths: number;
  /** Product id -> true, for each promotional product. */
  promotionalProducts: Record<string, true>;
}

export const membershipEntity: AuditedEntity = {
  entity: 'membership',
  lock: lockCatalog,
  async read(tx, id) {
    const { rows } = await tx.execute<{ state: MembershipState }>(sql`
      select json_build_object(
        'name', m.name, 'description', m.description, 'productId', m.product_id,
        'discountPackageId', m.discount_package_id, 'numberOfFreeEligibleItems', m.number_of_free_eligible_items,
        'membershipLengthInMonths', m.membership_length_in_months,
        'promotionalProducts', coalesce((select json_object_agg(p.product_id::text, true order by p.product_id)
                                         from promotional_products p where p.membership_id = m.membership_id), '{}'::json)
      ) as state
      from memberships m where m.membership_id = ${Number(id)}`);
    return rows[0]?.state ?? null;
  },
  async write(tx, id, target, current) {
    const membershipId = Number(id);
    if (target === null) {
      await tx.execute(sql`delete from memberships where membership_id = ${membershipId}`);
      return;
    }
    const t = target as MembershipState;
    await assertStillThere(tx, [String(t.productId), ...ids(t.promotionalProducts)], t.discountPackageId);
    if (current === null) {
      await tx.execute(sql`
        insert into memberships (membership_id, name, description, product_id, discount_package_id,
                                 number_of_free_eligible_items, membership_length_in_months)
        overriding system value
        values (${membershipId}, ${t.name}, ${t.description}, ${t.productId}, ${t.discountPackageId},
                ${t.numberOfFreeEligibleItems}, ${t.membershipLengthInMonths})`);
    } else {
      await tx.execute(sql`
        update memberships set name = ${t.name}, description = ${t.description}, product_id = ${t.productId},
          discount_package_id = ${t.discountPackageId}, number_of_free_eligible_items = ${t.numberOfFreeEligibleItems},
          membership_length_in_months = ${t.membershipLengthInMonths}, updated_at = now()
        where membership_id = ${membershipId}`);
    }
    const wanted = ids(t.promotionalProducts);
    await tx.execute(sql`
      delete from promotional_products
      where membership_id = ${membershipId} and product_id <> all(${intArray(wanted)}::int4[])`);
    if (wanted.length > 0) {
      await tx.execute(sql`
        insert into promotional_products (membership_id, product_id)
        select ${membershipId}, unnest(${intArray(wanted)}::int4[]) on conflict do nothing`);
    }
  },
  async names(_tx, _id, states) {
    return {
      label: nameOf(states),
      refs: {
        products: states.flatMap((s) => [
          ...(s?.['productId'] != null ? [String(s['productId'])] : []),
          ...ids(s?.['promotionalProducts']),
        ]),
        discountPackages: states.flatMap((s) =>
          s?.['discountPackageId'] != null ? [String(s['discountPackageId'])] : [],
        ),
      },
    };
  },
};

export interface DiscountPackageState extends State {
  name: string;
  description: string | null;
  /** Product id -> its package price (null: none set). */
  products: Record<string, { price: number | null }>;
}

export const discountPackageEntity: AuditedEntity = {
  entity: 'discount-package',
  lock: lockCatalog,
  async read(tx, id) {
    const { rows } = await tx.execute<{ state: DiscountPackageState }>(sql`
      select json_build_object(
        'name', dp.name, 'description', dp.description,
        'products', coalesce((select json_object_agg(p.product_id::text, json_build_object('price', p.price)
                                                     order by p.product_id)
                              from discount_package_products p where p.discount_package_id = dp.discount_package_id),
                             '{}'::json)
      ) as state
      from discount_packages dp where dp.discount_package_id = ${Number(id)}`);
    // Money comes back as JSON numbers (10.50 reads as 10.5): compared as numbers.
    return rows[0]?.state ?? null;
  },
  async write(tx, id, target, current) {
    const packageId = Number(id);
    if (target === null) {
      await tx.execute(sql`delete from discount_packages where discount_package_id = ${packageId}`);
      return;
    }
    const t = target as DiscountPackageState;
    await assertStillThere(tx, ids(t.products));
    if (current === null) {
      await tx.execute(sql`
        insert into discount_packages (discount_package_id, name, description) overriding system value
        values (${packageId}, ${t.name}, ${t.description})`);
    } else {
      await tx.execute(sql`
        update discount_packages set name = ${t.name}, description = ${t.description}, updated_at = now()
        where discount_package_id = ${packageId}`);
    }
    const wanted = Object.entries(t.products ?? {});
    await tx.execute(sql`
      delete from discount_package_products
      where discount_package_id = ${packageId}
        and product_id <> all(${intArray(wanted.map(([productId]) => productId))}::int4[])`);
    const had = (current?.['products'] ?? {}) as DiscountPackageState['products'];
    for (const [productId, { price }] of wanted) {
      if (productId in had && had[productId]?.price === price) continue;
      const value = price === null ? null : moneyText(price);
      await tx.execute(sql`
        insert into discount_package_products (discount_package_id, product_id, price)
        values (${packageId}, ${Number(productId)}, ${value})
        on conflict (discount_package_id, product_id) do update set price = excluded.price, updated_at = now()`);
    }
  },
  async names(_tx, _id, states) {
    return { label: nameOf(states), refs: { products: states.flatMap((s) => ids(s?.['products'])) } };
  },
};

/**
 * Makes an audited change in the caller's transaction: reads the entity's state, runs the change, reads it again and
 * appends the difference (nothing when nothing changed). Answers the entry's id, or null when nothing changed. `id` is a function where the
 * write creates the entity (its id is known after). `foldPrice` names the product whose package price this
 * saves: such saves fold into the same administrator's entry of the last minute.
 */
export async function recordChange(
  tx: Executor,
  audited: AuditedEntity,
  id: string | (() => string),
  change: { actor: Actor; action: string; foldPrice?: number; reverts?: number },
  write: () => Promise<unknown>,
): Promise<number | null> {
  const before = typeof id === 'string' ? await audited.read(tx, id) : null;
  await write();
  const entityId = typeof id === 'string' ? id : id();
  const after = await audited.read(tx, entityId);
  const diff = diffStates(before, after);
  if (diff) {
    const entry = {
      actor: change.actor,
      action: change.action,
      entity: audited.entity,
      entityId,
      ...diff,
      reverts: change.reverts ?? null,
      ...(await audited.names(tx, entityId, [diff.after, diff.before, after])),
    };
    return change.foldPrice === undefined
      ? appendAudit(tx, entry)
      : auditPriceSave(tx, { ...entry, productKey: String(change.foldPrice) });
  }
  return null;
}
