import { AUDIT_MESSAGES } from '@ums/contracts/audit';
import { answeredAtCommit } from '../../db/client.js';
import { conflict } from '../../plugins/http-errors.js';
import { productRepository } from '../catalog/products.repository.js';
import {
  discountPackageRepository,
  type DiscountPackageState,
} from '../discount-packages/discount-packages.repository.js';
import { membershipRepository, type MembershipState } from '../memberships/memberships.repository.js';
import {
  appendAudit,
  auditPriceSave,
  lockCatalog,
  type Actor,
  type AuditEntryInput,
  type Queryable,
  type Tx,
} from './audit.js';
import { diffStates, type State } from './states.js';

/**
 * An entity the audit trail records and can revert: how to read its whole state and how to make it look like a
 * state again (the entity's repository does both). Writers read the state before and after their change and record
 * the difference.
 */
export interface AuditedEntity {
  entity: string;
  /** Takes the lock its writers take first (before anything is read), so a read state is the one being changed. */
  lock(tx: Queryable): Promise<void>;
  read(tx: Queryable, id: string): Promise<State | null>;
  /** Makes the entity look like `target` (null: removes it); `current` is its state now. */
  write(tx: Queryable, id: string, target: State | null, current: State | null, actor: Actor): Promise<void>;
  /** The entity's name, and what the states refer to by id (the entry keeps their names). */
  names(
    tx: Queryable,
    id: string,
    states: (State | null)[],
  ): Promise<Pick<AuditEntryInput, 'label' | 'labels' | 'refs'>>;
}

const ids = (value: unknown) => Object.keys((value as Record<string, unknown> | undefined) ?? {});
const nameOf = (states: (State | null)[]) =>
  (states.find((s) => s !== null && typeof s['name'] === 'string')?.['name'] as string | undefined) ?? null;

/** A revert may bring back references to products or a package removed since: refused in words, not by a key. */
async function assertStillThere(tx: Queryable, productIds: string[], packageId: number | null = null) {
  const missing = await productRepository.missingIds(tx, productIds.map(Number));
  if (missing.length > 0) throw conflict(AUDIT_MESSAGES.productsGone(missing));
  if (packageId !== null && !(await discountPackageRepository.exists(tx, packageId))) {
    throw conflict(AUDIT_MESSAGES.packageGone(packageId));
  }
}

export const membershipEntity: AuditedEntity = {
  entity: 'membership',
  lock: lockCatalog,
  read: (tx, id) => membershipRepository.readState(tx, Number(id)),
  async write(tx, id, target, current) {
    const t = target as MembershipState | null;
    if (t !== null)
      await assertStillThere(tx, [String(t.productId), ...ids(t.promotionalProducts)], t.discountPackageId);
    await membershipRepository.restoreState(tx, Number(id), t, current as MembershipState | null);
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

export const discountPackageEntity: AuditedEntity = {
  entity: 'discount-package',
  lock: lockCatalog,
  read: (tx, id) => discountPackageRepository.readState(tx, Number(id)),
  async write(tx, id, target, current) {
    const t = target as DiscountPackageState | null;
    if (t !== null) await assertStillThere(tx, ids(t.products));
    await discountPackageRepository.restoreState(tx, Number(id), t, current as DiscountPackageState | null);
  },
  async names(_tx, _id, states) {
    return { label: nameOf(states), refs: { products: states.flatMap((s) => ids(s?.['products'])) } };
  },
};

/** What an audited change is: who made it, its action, and (a price save) the product whose price it folds. */
export interface Change {
  actor: Actor;
  action: string;
  /** The product whose package price this saves: such saves fold into the administrator's entry of the last minute. */
  foldPrice?: number;
  reverts?: number;
}

/**
 * Makes an audited change in the caller's transaction: reads the entity's state, runs the change, reads it again and
 * appends the difference (nothing when nothing changed). Answers the entry's id, or null when nothing changed.
 */
export async function recordChange(
  tx: Queryable,
  audited: AuditedEntity,
  id: string,
  change: Change,
  write: () => Promise<unknown>,
): Promise<number | null> {
  const before = await audited.read(tx, id);
  await write();
  return recordStates(tx, audited, id, change, before, await audited.read(tx, id));
}

/** The entry recording the difference between two states, or null when nothing changed. */
async function entryOf(
  tx: Queryable,
  audited: AuditedEntity,
  entityId: string,
  change: Change,
  before: State | null,
  after: State | null,
): Promise<AuditEntryInput | null> {
  const diff = diffStates(before, after);
  if (!diff) return null;
  return {
    actor: change.actor,
    action: change.action,
    entity: audited.entity,
    entityId,
    ...diff,
    reverts: change.reverts ?? null,
    ...(await audited.names(tx, entityId, [diff.after, diff.before, after])),
  };
}

/** The entry appended, or a price's save folded into the last minute's entry (one statement either way). */
const appendEntry = (tx: Queryable, entry: AuditEntryInput, change: Change) =>
  change.foldPrice === undefined
    ? appendAudit(tx, entry)
    : auditPriceSave(tx, { ...entry, productKey: String(change.foldPrice) });

/**
 * Appends the difference between two states of an entity, in the caller's transaction (nothing when nothing changed),
 * for a writer that knows both without reading them again (decision 039). Answers the entry's id, or null.
 */
export async function recordStates(
  tx: Queryable,
  audited: AuditedEntity,
  entityId: string,
  change: Change,
  before: State | null,
  after: State | null,
): Promise<number | null> {
  const entry = await entryOf(tx, audited, entityId, change, before, after);
  return entry ? appendEntry(tx, entry, change) : null;
}

/**
 * As `recordStates`, for a write of the catalog: the entry's insert is sent, and its answer awaited with the COMMIT
 * sent behind it (decision 051), so a write that ends with its entry holds its locks for no round trip of the
 * server's in between. The change and its record still land together or neither does. Statements the work sends after
 * it run behind it; if the entry is refused they are refused too, and the write fails with the entry's error.
 * Resolves once it is sent.
 */
export async function recordStatesAtCommit(
  tx: Tx,
  audited: AuditedEntity,
  entityId: string,
  change: Change,
  before: State | null,
  after: State | null,
): Promise<void> {
  const entry = await entryOf(tx, audited, entityId, change, before, after);
  if (entry) answeredAtCommit(tx, () => appendEntry(tx, entry, change));
}
