/**
 * The administrators' audit trail, free of any schema library (the browser imports it): what each entry records,
 * what its actions are called on screen, and the answers of a revert.
 */

/** What an entry is about: `entityId` is the membership's or package's id, the member's account id, or `products`. */
export const AUDIT_ENTITIES = {
  membership: 'Membership',
  'discount-package': 'Discount package',
  member: 'Member',
  catalog: 'Product catalog',
} as const;
export type AuditEntity = keyof typeof AUDIT_ENTITIES;
/** The catalog's entries: everything but a member's (what a role without member data reads, the overview counts). */
export const CATALOG_AUDIT_ENTITIES: readonly AuditEntity[] = ['membership', 'discount-package', 'catalog'];

/** Each action as the Activity screen names it. */
export const AUDIT_ACTIONS: Record<string, string> = {
  'membership-created': 'Created the membership',
  'membership-updated': 'Edited the membership',
  'membership-deleted': 'Deleted the membership',
  'promotional-products-added': 'Added promotional products',
  'promotional-product-removed': 'Removed a promotional product',
  'discount-package-created': 'Created the discount package',
  'discount-package-updated': 'Edited the discount package',
  'discount-package-deleted': 'Deleted the discount package',
  'package-product-added': 'Added a product to the package',
  'package-product-removed': 'Removed a product from the package',
  'package-price-changed': 'Changed a package price',
  'catalog-refreshed': 'Refreshed the product catalog',
  'member-groups-changed': "Changed the member's groups",
  'member-sessions-ended': "Ended the member's sessions",
  'member-sign-in-methods-reset': "Reset the member's sign-in methods",
  'account-deleted': 'Deleted the closed account',
  'member-details-read': "Read the member's details",
  'member-orders-read': "Read the member's orders",
  'members-exported': 'Exported the member directory',
  revert: 'Reverted a change',
};

/** Entries a revert cannot undo: what they record is gone or was never a state (sessions, a refresh, a purge). */
export const AUDIT_IRREVERSIBLE_ACTIONS = [
  'catalog-refreshed',
  'member-sessions-ended',
  'member-sign-in-methods-reset',
  'account-deleted',
  'member-details-read',
  'member-orders-read',
  'members-exported',
] as const;

/** Administrators' reads of personal data, recorded as entries (who read whose data, and what). */
export const AUDIT_READ_ACTIONS = ['member-details-read', 'member-orders-read', 'members-exported'] as const;
export type AuditReadAction = (typeof AUDIT_READ_ACTIONS)[number];

/**
 * The actor id of a change an operator made at the server's command line (`users grant`, `users revoke`), which no
 * administrator's token made: the trail names it apart from the server's own changes ('system').
 */
export const OPERATOR_ACTOR_ID = 'operator';

/** The entity id of a whole-directory export's entry (a member's entries carry their account id). */
export const MEMBER_DIRECTORY_ENTITY_ID = 'directory';

export const AUDIT_MESSAGES = {
  reverted: 'Change reverted',
  changedSince:
    'This was changed again since: reverting it now would undo later changes too. The current state is shown.',
  irreversible: 'This kind of change cannot be reverted.',
  nothingToRevert: 'There is nothing to revert: it already shows the state from before this change.',
  productsGone: (ids: number[]) =>
    `This cannot be reverted: ${ids.length === 1 ? 'product' : 'products'} ${ids.join(', ')} ${
      ids.length === 1 ? 'is' : 'are'
    } no longer in the catalog.`,
  packageGone: (id: number) => `This cannot be reverted: discount package ${id} no longer exists.`,
} as const;

/** One entry of the audit trail as the API answers it. */
export interface AuditEntry {
  id: number;
  /** ISO 8601. */
  at: string;
  actor: { id: string; email: string | null };
  action: string;
  entity: AuditEntity;
  entityId: string;
  /** The entity's name at the time. */
  label: string | null;
  /** Names of what `before` and `after` refer to by id, as `product:12` or `discountPackage:3`. */
  labels: Record<string, string>;
  /** The changed fields before and after (the whole state where the entity was created or removed; null there). */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The entry this one reverted. */
  reverts: number | null;
  /** The newest entry that reverted this one. */
  revertedBy: number | null;
  revertible: boolean;
}

/** The filters of the audit list, on top of the paging contract. */
export interface AuditFilters {
  entity?: AuditEntity;
  entityId?: string;
  actor?: string;
}
