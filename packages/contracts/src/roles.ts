/**
 * The console's roles and what each may do, free of any schema library (the browser imports it). The API's route
 * policies name these rights and the web console shows what they allow: one table for both sides.
 */

/** The console's roles, each one group of the groups claim (`AUTH_ADMIN_GROUP`, `AUTH_SUPPORT_GROUP`, …). */
export const CONSOLE_ROLES = ['Admin', 'Support', 'Catalog'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** The group each role is carried as: configured, since another provider may name its groups otherwise. */
export type RoleGroups = Readonly<Record<ConsoleRole, string>>;

/**
 * Who may do what in the console (least privilege: HIPAA's "minimum necessary"). Support helps members and never sees
 * the catalog; Catalog keeps the catalog and never sees a member; only Admin changes groups or exports the directory.
 */
export const CONSOLE_RIGHTS = {
  /** The console itself: its dashboard, the audit trail (Catalog: the catalog's entries only) and its settings. */
  console: ['Admin', 'Support', 'Catalog'],
  /** Memberships, discount packages and their prices, products, promotional products, the refresh, the overview. */
  catalog: ['Admin', 'Catalog'],
  /** The member directory and member pages: orders, subscriptions, sessions, activity; ending sessions, resets. */
  members: ['Admin', 'Support'],
  /** Member data as CSV files: the directory, a member's orders. */
  membersExport: ['Admin'],
  /** A member's groups, console roles included, and reverting a change to them. */
  roles: ['Admin'],
  /** The business over time: members, subscriptions, revenue, sign-ins (the overview's charts). */
  metrics: ['Admin'],
} as const satisfies Record<string, readonly ConsoleRole[]>;
export type ConsoleRight = keyof typeof CONSOLE_RIGHTS;

/** What a right covers, as "Your role does not include …" finishes it. */
export const RIGHT_NAMES: Record<ConsoleRight, string> = {
  console: 'the admin console',
  catalog: 'the catalog',
  members: 'member data',
  membersExport: 'exporting member data',
  roles: "changing members' groups",
  metrics: 'the business figures',
};

export const ROLE_TEXTS = {
  /** The API's 403 and the console's page for an address the role lacks. */
  lacks: (right: ConsoleRight) => `Your role does not include ${RIGHT_NAMES[right]}.`,
  /** Below it: who can help. */
  askFor: (right: ConsoleRight) =>
    `Ask an administrator for the ${CONSOLE_RIGHTS[right].filter((role) => role !== 'Admin').join(' or ') || 'Admin'} role.`,
  lastAdmin: 'The last administrator cannot lose the Admin group: give it to someone else first.',
  /** Support acting on a person who holds a console role (an Admin's second factors, say). */
  onlyAdminOnRoles: 'Only an administrator can do this to someone with a console role.',
  /** The whole directory in one answer is an export. */
  wholeDirectory: 'Ask for the member directory a page at a time (limit): the whole directory at once is an export.',
} as const;

/** The right a revert of an audit entry about `entity` needs: the catalog's own, or Admin's for a member's groups. */
export const revertRight = (entity: string): ConsoleRight => (entity === 'member' ? 'roles' : 'catalog');

/** The roles a person's groups carry. */
export function rolesOf(groups: readonly string[], names: RoleGroups): ConsoleRole[] {
  return CONSOLE_ROLES.filter((role) => groups.includes(names[role]));
}

/** Whether any of the roles holds the right. */
export function hasRight(roles: readonly ConsoleRole[], right: ConsoleRight): boolean {
  return roles.some((role) => (CONSOLE_RIGHTS[right] as readonly ConsoleRole[]).includes(role));
}
