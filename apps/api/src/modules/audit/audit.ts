import { OPERATOR_ACTOR_ID } from '@ums/contracts/audit';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { namedStatement, placeholders, type Database, type Transaction } from '../../db/client.js';
import { entityStripe, stripeKeyList, stripeKeys, WRITE_STRIPES } from '../../db/write-stripes.js';
import { requireUser } from '../../plugins/auth.js';

export type Executor = Pick<Database, 'execute'>;
export type Tx = Transaction;
/** What a repository runs on: the pool, or the caller's transaction. */
export type Queryable = Database | Tx;

/**
 * Who made a change: an administrator (their token's subject and email), an operator at the command line, or the
 * server itself.
 */
export interface Actor {
  id: string;
  email: string | null;
}

export const SYSTEM_ACTOR: Actor = { id: 'system', email: null };
/** An operator at the server's command line. */
export const OPERATOR_ACTOR: Actor = { id: OPERATOR_ACTOR_ID, email: null };

/** The administrator making a request, as the audit trail names them. */
export function actorOf(request: FastifyRequest): Actor {
  const user = requireUser(request);
  return { id: user.subject, email: user.email };
}

export interface AuditEntryInput {
  actor: Actor;
  action: string;
  entity: string;
  entityId: string;
  before: unknown;
  after: unknown;
  /** The entity's name at the time. */
  label?: string | null;
  /** Names of what the states refer to by id, such as `product:12`. */
  labels?: Record<string, string> | null;
  /** Products and discount packages the states refer to: their names now are added to `labels`. */
  refs?: { products?: (string | number)[]; discountPackages?: (string | number)[] };
  /** The entry this one undid. */
  reverts?: number | null;
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
const ids = (list: (string | number)[] = []) =>
  `{${[...new Set(list.map(Number))].filter((id) => Number.isInteger(id)).join(',')}}`;

/**
 * The entry's `labels`: those given (JSON text), and the current names of the products and packages it refers to
 * (arrays of ids as PostgreSQL's text form, `ids`).
 */
const labelsFrom = (given: SQL, products: SQL, packages: SQL) => sql`(coalesce(${given}::jsonb, '{}'::jsonb)
  || coalesce((select jsonb_object_agg('product:' || product_id, name) from products
               where product_id = any(${products}::int4[])), '{}'::jsonb)
  || coalesce((select jsonb_object_agg('discountPackage:' || discount_package_id, name) from discount_packages
               where discount_package_id = any(${packages}::int4[])), '{}'::jsonb))`;
const labelValues = (entry: AuditEntryInput) => ({
  labels: json(entry.labels),
  products: ids(entry.refs?.products),
  packages: ids(entry.refs?.discountPackages),
});

const appended = placeholders(
  'actorId',
  'actorEmail',
  'action',
  'entity',
  'entityId',
  'before',
  'after',
  'label',
  'labels',
  'products',
  'packages',
  'reverts',
);
/** An entry appended, as a named prepared statement (decision 039): every audited write runs it. */
const insertEntry = namedStatement<{ id: string }>(
  'audit_append',
  sql`
  insert into audit_entries (actor_id, actor_email, action, entity, entity_id, before, after, label, labels, reverts)
  select ${appended.actorId}, ${appended.actorEmail}, ${appended.action}, ${appended.entity}, ${appended.entityId},
         ${appended.before}::jsonb, ${appended.after}::jsonb, ${appended.label}::text,
         ${labelsFrom(appended.labels, appended.products, appended.packages)}, ${appended.reverts}::bigint
  returning id`,
);

/**
 * Appends one entry to the audit trail, in the caller's transaction: the change and its record land together or
 * neither does. Entries are never changed or removed (the table's trigger refuses it, but for `auditPriceSave`).
 */
export function appendAudit(tx: Queryable, entry: AuditEntryInput): Promise<number> {
  // Not async: a state JSON cannot hold throws here, before anything is sent, and fails the work rather than a
  // transaction whose COMMIT is already behind it (decision 051). Every value sent is a string, a number or null.
  return insertEntry(tx, {
    actorId: entry.actor.id,
    actorEmail: entry.actor.email,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId,
    before: json(entry.before),
    after: json(entry.after),
    label: entry.label ?? null,
    reverts: entry.reverts ?? null,
    ...labelValues(entry),
  }).then(([row]) => Number(row!.id));
}

export const PRICE_CHANGED = 'package-price-changed';

/**
 * A package price save, audited: price fields save as the administrator types (debounced), so the same
 * administrator's saves of one product's price within a minute fold into one entry whose `before` is the price before
 * the first save and whose `after` the latest. A reverted entry is never folded into. One statement folds the save, or
 * appends an entry when there is none to fold into, so the statement is sent as the call is made and nothing waits
 * on its answer in between (decision 051). Answers the entry's id.
 */
export function auditPriceSave(tx: Queryable, entry: AuditEntryInput & { productKey: string }): Promise<number> {
  // Not async, as `appendAudit`.
  return priceSave(tx, {
    actorId: entry.actor.id,
    actorEmail: entry.actor.email,
    entity: entry.entity,
    entityId: entry.entityId,
    productKey: entry.productKey,
    before: json(entry.before),
    after: json(entry.after),
    label: entry.label ?? null,
    ...labelValues(entry),
  }).then(([row]) => Number(row!.id));
}

/**
 * The fold, or the entry appended, as a named prepared statement (decision 039): a price save runs it as the
 * administrator types. The fold runs as the trail's owner (migration 0019): the server's role may add entries, never
 * change one. The entry is appended only when the fold found none to change (the CTE's condition reads its answer).
 */
const priced = placeholders(
  'actorId',
  'actorEmail',
  'entity',
  'entityId',
  'productKey',
  'before',
  'after',
  'label',
  'labels',
  'products',
  'packages',
);
const priceSave = namedStatement<{ id: string }>(
  'audit_price_save',
  sql`
  with named as (select ${labelsFrom(priced.labels, priced.products, priced.packages)} as labels),
  folded as (
    select audit_fold_price_save(${priced.entity}, ${priced.entityId}, ${priced.actorId}, ${priced.productKey},
                                 ${priced.after}::jsonb, (select labels from named)) as id
  ),
  appended as (
    insert into audit_entries (actor_id, actor_email, action, entity, entity_id, before, after, label, labels)
    select ${priced.actorId}, ${priced.actorEmail}, ${PRICE_CHANGED}, ${priced.entity}, ${priced.entityId},
           ${priced.before}::jsonb, ${priced.after}::jsonb, ${priced.label}::text, named.labels
    from named
    where (select id from folded) is null
    returning id
  )
  select coalesce((select id from folded), (select id from appended)) as id`,
);

/**
 * A transaction for an audited write that spans the catalog (the products' refresh, a revert):
 * it takes the whole catalog's lock first, every stripe, so the state read for `before` is the one the write changes
 * and the entities it reads stand still; writes of one entity take that entity's stripe instead (decision 040).
 */
export function catalogTransaction<T>(db: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  return lockedTransaction(db, lockCatalog, work);
}

/**
 * A transaction whose first statement takes `lock`. The work's first statement is sent behind the lock's, without
 * waiting for its answer (decision 051): PostgreSQL runs it once the lock is held, on a snapshot taken then, so the
 * lock is held for no round trip of the server's before it. A lock refused, or found missing, fails the transaction
 * as itself, whatever the work's statements answered after it.
 */
function lockedTransaction<T>(db: Database, lock: (tx: Tx) => Promise<void>, work: (tx: Tx) => Promise<T>) {
  return db.transaction(async (tx) => {
    const locked = lock(tx);
    // Handled now, so its refusal is never unhandled while the work runs; awaited (and thrown) below.
    locked.catch(() => undefined);
    try {
      const result = await work(tx);
      await locked;
      return result;
    } catch (error) {
      await locked;
      throw error;
    }
  });
}

/**
 * A transaction for an audited write of one discount package: its fields, its products and their prices, its removal
 * (decision 045: the memberships' foreign key, not this lock, keeps a package that one uses). It takes
 * that package's stripe of the catalog's lock only (decisions 036 and 040), so writes of packages and memberships in
 * other stripes go on beside it, while writes of the same package, and every write that spans entities, wait for it.
 */
export function packageTransaction<T>(
  db: Database,
  discountPackageId: number,
  work: (tx: PackageTx) => Promise<T>,
): Promise<T> {
  return lockedTransaction(
    db,
    (tx) => lockStripes(tx, [entityStripe(discountPackageId)]),
    (tx) => work(tx as PackageTx),
  );
}

/**
 * A transaction for an audited write of one membership (its fields, its promotional products, its removal), or of
 * the promotional products of several: their stripes of the catalog's lock only (decision 040).
 */
export function membershipTransaction<T>(
  db: Database,
  membershipIds: number | number[],
  work: (tx: MembershipTx) => Promise<T>,
): Promise<T> {
  const stripes = [membershipIds].flat().map(entityStripe);
  return lockedTransaction(
    db,
    (tx) => lockStripes(tx, stripes),
    (tx) => work(tx as MembershipTx),
  );
}

let creations = 0;
/**
 * A transaction that creates a package or a membership: one stripe of the catalog's lock, taken in turn (decision
 * 040). Nothing else sees the new entity before it commits. A product it refers to is removed only under the whole
 * catalog's lock, which waits for this one; a package it refers to is kept by the foreign key (decision 045).
 */
export function creationTransaction<T>(db: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  // Stripes 1 to 15: stripe 0's rows of the audit trail's version and count are also every other writer's.
  const stripe = 1 + (creations++ % (WRITE_STRIPES - 1));
  return lockedTransaction(db, (tx) => lockStripes(tx, [stripe]), work);
}

declare const packageLocked: unique symbol;
/**
 * A transaction that took a package's stripe first (`packageTransaction`): what a price save that derives its answer
 * from the package as it was needs (decision 039). Only that function makes one.
 */
export type PackageTx = Tx & { readonly [packageLocked]: true };

declare const membershipLocked: unique symbol;
/**
 * A transaction that took its memberships' stripes first (`membershipTransaction`): what a membership's write that
 * derives its state after from its state before needs (decisions 039 and 040). Only that function makes one.
 */
export type MembershipTx = Tx & { readonly [membershipLocked]: true };

/**
 * The whole catalog's lock: every stripe of the catalog's version (decisions 036 and 040), taken in key order as a
 * transaction's first statement, so it waits for every write in flight on any stripe and they wait for it.
 */
export async function lockCatalog(tx: Queryable): Promise<void> {
  const rows = await catalogLock(tx, {});
  if (rows.length !== stripeKeys('catalog').length) throw new Error(MISSING_STRIPES);
}

// Both locks are named prepared statements (decision 039): every catalog write runs one first.
const catalogLock = namedStatement(
  'catalog_lock',
  sql`select 1 from data_versions where key in (${stripeKeyList('catalog')}) order by key for update`,
);
const stripesLock = namedStatement(
  'stripes_lock',
  sql`select set_config('ums.write_stripe', ${sql.placeholder('stripe')}, true)
      from data_versions where key = any(${sql.placeholder('keys')}::text[]) order by key for update`,
);

/** A stripe row gone would leave its writers unlocked and its version unmoved: refused rather than run without. */
const MISSING_STRIPES = "The catalog's version rows are missing (migration 0022): the write was not made";

/**
 * Stripes of the catalog's lock (decision 040), taken in key order as `lockCatalog` takes them all, so no two writers
 * wait for each other in a circle. The transaction is named for the first stripe given, so the writes' triggers move
 * that stripe of the catalog's and the audit trail's versions and of the kept counts (migrations 0022 and 0023), and
 * no other.
 */
export async function lockStripes(tx: Queryable, stripes: number[]): Promise<void> {
  if (stripes.length === 0) throw new Error('No stripe of the catalog was named: the write was not made');
  const all = stripeKeys('catalog');
  const keys = [...new Set(stripes)].map((stripe) => all[stripe]!);
  const rows = await stripesLock(tx, { stripe: String(stripes[0]), keys: `{${keys.join(',')}}` });
  if (rows.length !== keys.length) throw new Error(MISSING_STRIPES);
}
