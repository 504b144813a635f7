import { isDeepStrictEqual } from 'node:util';
import {
  envelopeSchema,
  pageSchema,
  paymentHistoryEntrySchema,
  securityActivitySchema,
  type AdminMember,
  type AdminMemberDetails,
} from '@ums/contracts';
import type { AuditReadAction } from '@ums/contracts/audit';
import { rolesOf, ROLE_TEXTS, type ConsoleRole, type RoleGroups } from '@ums/contracts/roles';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { accounts, passkeys, recoveryCodes, totpFactors } from '../../db/schema/index.js';
import { anyAdmin, createAccountService, lockGroupChanges } from '../../identity/accounts.service.js';
import { revokeAccount } from '../../identity/revocations.js';
import { endAccountSessions } from '../../identity/sessions.js';
import { createSecurityService, type SecurityService } from '../../identity/security.service.js';
import type { AppConfig } from '../../config/env.js';
import type { KeyService } from '../../secrets/key-service.js';
import type { EmailChanges } from '../../identity/email-change.js';
import type { RequestOrigin } from '../../identity/security-events.js';
import { conflict, HttpError, notFound } from '../../plugins/http-errors.js';
import type { MyData } from '../self-service/my-data.js';
import type { RolesChangedBy } from '../../mail/alerts.js';
import { appendAudit, OPERATOR_ACTOR, type Actor, type Executor, type Queryable, type Tx } from '../audit/audit.js';
import { recordStates, type AuditedEntity } from '../audit/entities.js';
import type { Lists } from '../lists/lists.js';
import { paymentHistoryList } from '../member/member.lists.js';
import { activityList } from '../security/security.lists.js';
import { memberFrom, memberItem, memberKey } from './members.lists.js';
import { isAccountId } from '../../identity/account-id.js';

/** Orders, or security events, on the member's page before "Load more". */
const PAGE = 25;
/** The orders route's answer for a page (it always has `page`). */
const newestOrdersSchema = envelopeSchema(paymentHistoryEntrySchema).extend({ page: pageSchema });
/** The activity route's answer for a page. */
const newestActivitySchema = envelopeSchema(securityActivitySchema).extend({ page: pageSchema });

export const MEMBER_MESSAGES = {
  sessionsEnded: 'Every session of the member has ended',
  signInMethodsReset: "The member's sign-in methods were reset and their sessions ended",
  groupsSaved: 'Groups saved',
  ownAdmin: 'You cannot remove your own Admin group: ask another administrator.',
  noLongerAdmin: 'Your Admin group has just been removed by another administrator, so this change was not made.',
} as const;

/**
 * Whether the caller may act on a member with these groups (throws when not): Support may end the sessions and reset
 * the sign-in methods of members, but not of someone who holds a console role, or it could strip an Admin's second
 * factors.
 */
export type MayActOn = (groups: string[]) => void;

/**
 * Told when a change of groups changed the member's console roles (in its transaction), and by whom: the member is
 * mailed.
 */
export type RolesChanged = (
  tx: Queryable,
  accountId: string,
  before: ConsoleRole[],
  after: ConsoleRole[],
  by: RolesChangedBy,
) => Promise<void>;

/**
 * A member's groups as the audit trail records and reverts them. Changing them voids the member's tokens so their
 * next one carries the new groups; an administrator cannot take their own Admin group away, and nobody can take the
 * last one's (someone must be left to give it back).
 */
export function memberGroupsEntity(
  roleGroups: RoleGroups,
  onRolesChanged: RolesChanged = async () => {},
): AuditedEntity {
  const adminGroup = roleGroups.Admin;
  return {
    entity: 'member',
    lock: lockGroupChanges,
    async read(tx, id) {
      const [row] = await tx
        .select({ groups: accounts.groups })
        .from(accounts)
        .where(eq(accounts.accountId, id))
        .for('update');
      return row ? { groups: row.groups } : null;
    },
    async write(tx, id, target, current, actor) {
      if (target === null || current === null) throw notFound('The member');
      const groups = target['groups'] as string[];
      const before = current['groups'] as string[];
      if (actor.id === id && before.includes(adminGroup) && !groups.includes(adminGroup)) {
        throw conflict(MEMBER_MESSAGES.ownAdmin);
      }
      // Group changes take turns (`lock`, held since before `read`), and each checks its actor is still an
      // administrator once its turn comes: two administrators taking each other's Admin at once would otherwise both
      // succeed and leave nobody to give it back.
      // The actor's id is a token subject, not always an account's uuid. An operator at the command line has no
      // account, so nothing to check.
      const [actorRow] = await tx
        .select({ groups: accounts.groups })
        .from(accounts)
        .where(isAccountId(accounts.accountId, actor.id));
      if (actorRow && !actorRow.groups.includes(adminGroup)) {
        throw new HttpError(403, MEMBER_MESSAGES.noLongerAdmin);
      }
      await tx
        .update(accounts)
        .set({
          groups: sql`array(select jsonb_array_elements_text(${JSON.stringify(groups)}::jsonb))`,
          updatedAt: sql`now()`,
        })
        .where(eq(accounts.accountId, id));
      // Under the same lock, so two removals at once cannot each leave the other as the last.
      if (before.includes(adminGroup) && !groups.includes(adminGroup) && !(await anyAdmin(tx, adminGroup))) {
        throw conflict(ROLE_TEXTS.lastAdmin);
      }
      await revokeAccount(tx, id);
      const [had, has] = [rolesOf(before, roleGroups), rolesOf(groups, roleGroups)];
      const by = actor.id === OPERATOR_ACTOR.id ? 'operator' : 'administrator';
      if (!isDeepStrictEqual(had, has)) await onRolesChanged(tx, id, had, has, by);
    },
    async names(tx, id) {
      const [row] = await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.accountId, id));
      return { label: row?.email ?? null, labels: {} };
    },
  };
}

/**
 * Changes a member's groups in the caller's transaction as `memberGroupsEntity` writes them: in the turn of group
 * changes, recorded in the audit trail, their tokens voided, and the member mailed when their console roles change.
 * Answers false, recording nothing, when `change` leaves the groups as they are.
 */
export async function changeMemberGroups(
  tx: Tx,
  groupsEntity: AuditedEntity,
  actor: Actor,
  id: string,
  change: (groups: string[]) => string[],
): Promise<boolean> {
  await groupsEntity.lock(tx);
  const current = await groupsEntity.read(tx, id);
  if (!current) throw notFound('The member');
  const groups = change(current['groups'] as string[]);
  if (isDeepStrictEqual(current['groups'], groups)) return false;
  // The state before is the one just read under the lock, and the state after the one written: neither read again.
  await groupsEntity.write(tx, id, { groups }, current, actor);
  await recordStates(tx, groupsEntity, id, { actor, action: 'member-groups-changed' }, current, { groups });
  return true;
}

/**
 * An operator's `users grant` and `users revoke` at the command line: the member page's change of groups
 * (`changeMemberGroups`), by the operator (`OPERATOR_ACTOR`), for the account of an email. The member's mail waits in
 * the outbox for a running server to send it.
 */
export function createOperatorGroups({
  db,
  config,
  secrets,
}: {
  db: Database;
  config: Pick<AppConfig, 'publicUrl' | 'web' | 'auth'>;
  /** Seals the member's mail in the outbox. */
  secrets: KeyService;
}) {
  const security = createSecurityService({ db, config, secrets });
  const groupsEntity = memberGroupsEntity(config.auth.roleGroups, security.rolesChanged);
  async function change(email: string, next: (groups: string[]) => string[]): Promise<boolean> {
    const account = await createAccountService({ db }).findByEmail(email);
    if (!account) throw notFound(`Account ${email}`);
    return db.transaction((tx) => changeMemberGroups(tx, groupsEntity, OPERATOR_ACTOR, account.accountId, next));
  }
  return {
    /** Puts the account in the group; false when it was in it already. */
    grant: (email: string, group: string) =>
      change(email, (groups) => (groups.includes(group) ? groups : [...groups, group])),
    /** Takes the account out of the group, never the last one out of the Admin group; false when it was not in it. */
    revoke: (email: string, group: string) => change(email, (groups) => groups.filter((g) => g !== group)),
  };
}

/**
 * The administrators' member directory: who a member is and what they bought, read-only for personal data (support
 * sees, the member edits), plus the two things support may do: end a member's sessions and change their groups.
 * Both are audited in the transaction that makes them.
 */
export function createMemberDirectory({
  db,
  myData,
  security,
  lists,
  roleGroups,
  emailChanges = null,
}: {
  db: Database;
  lists: Lists;
  myData: MyData;
  security: SecurityService;
  roleGroups: RoleGroups;
  /** The embedded provider's email changes: the member page shows one waiting for its link. */
  emailChanges?: EmailChanges | null;
}) {
  const groupsEntity = memberGroupsEntity(roleGroups, security.rolesChanged);
  async function entry(tx: Executor, id: string): Promise<AdminMember> {
    const { rows } = await tx.execute<{ member: AdminMember }>(
      sql`select ${memberItem} as member from ${memberFrom} where ${memberKey} = ${id}::uuid`,
    );
    if (!rows[0]) throw notFound('The member');
    return rows[0].member;
  }

  return {
    /** 404 unless the member exists. */
    assertExists: async (id: string) => {
      await entry(db, id);
    },

    async details(id: string): Promise<AdminMemberDetails> {
      const member = await entry(db, id);
      // A member may have years of orders: the newest page comes along, the `orders` route pages through the rest.
      // It is that route's own answer (kept per member version), read back by its contract.
      const orders = newestOrdersSchema.parse(
        JSON.parse(await lists.member(paymentHistoryList, { limit: PAGE }, [id])),
      );
      // And the newest page of its security activity (an account under attack gathers thousands of failed sign-ins
      // in the 90 days they are kept): the `activity` route's own answer.
      const activity = newestActivitySchema.parse(JSON.parse(await lists.fresh(activityList, { limit: PAGE }, [id])));
      const held = await myData.collect(id, { orders: false, activity: false });
      return {
        member,
        personalInformation: held.personalInformation,
        orders: orders.data,
        ordersPage: orders.page,
        subscriptions: held.subscriptions,
        securityActivity: activity.data,
        securityActivityPage: activity.page,
        sessions: await security.listSessions(id, null),
        signInMethods: await signInMethodsOf(db, id),
        pendingEmailChange: (await emailChanges?.waitingFor(id)) ?? null,
      };
    },

    /**
     * For a member who lost their second factors: every authenticator app, passkey and recovery code goes, their
     * sessions end, the member is told by mail, and the entry records how many of each there were.
     */
    async resetSignInMethods(actor: Actor, id: string, origin: RequestOrigin, may: MayActOn): Promise<void> {
      await db.transaction(async (tx) => {
        may((await entry(tx, id)).groups);
        const before = await signInMethodsOf(tx, id);
        await tx.delete(totpFactors).where(eq(totpFactors.accountId, id));
        await tx.delete(passkeys).where(eq(passkeys.accountId, id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.accountId, id));
        await endAccountSessions(tx, id);
        await security.factorEvent(tx, id, 'sign-in-methods-reset', origin);
        await appendAudit(tx, {
          actor,
          action: 'member-sign-in-methods-reset',
          entity: 'member',
          entityId: id,
          before,
          after: { authenticatorApp: false, passkeys: 0, recoveryCodes: 0 },
        });
      });
      security.kickMail();
    },

    /** Signs the member out everywhere: their sessions end and their tokens stop working on every process. */
    async endSessions(actor: Actor, id: string, may: MayActOn): Promise<void> {
      await db.transaction(async (tx) => {
        may((await entry(tx, id)).groups);
        const before = (await security.listSessions(id, null)).length;
        await endAccountSessions(tx, id);
        await appendAudit(tx, {
          actor,
          action: 'member-sessions-ended',
          entity: 'member',
          entityId: id,
          before: { sessions: before },
          after: { sessions: 0 },
        });
      });
    },

    /**
     * An administrator's read of personal data, recorded before the data is answered (health data: every access is
     * accounted for). `what` says what was read: the query of a list, the format of an export.
     */
    async recordRead(actor: Actor, action: AuditReadAction, id: string, what: Record<string, unknown>): Promise<void> {
      await appendAudit(db, { actor, action, entity: 'member', entityId: id, before: null, after: what });
    },

    /** Replaces the member's groups (audited, and mailed when their console roles change; see `memberGroupsEntity`). */
    async setGroups(actor: Actor, id: string, groups: string[]): Promise<AdminMember> {
      const saved = await db.transaction(async (tx) => {
        await changeMemberGroups(tx, groupsEntity, actor, id, () => groups);
        return entry(tx, id);
      });
      security.kickMail();
      return saved;
    },
  };
}

export type MemberDirectory = ReturnType<typeof createMemberDirectory>;

/** A member's second factors as the console shows them: kinds and counts. */
async function signInMethodsOf(db: Executor, id: string) {
  const { rows } = await db.execute<{ app: boolean; passkeys: number; codes: number }>(sql`
    select exists(select 1 from ${totpFactors}
                  where ${totpFactors.accountId} = ${id} and ${totpFactors.confirmedAt} is not null) as app,
           (select count(*)::int from ${passkeys} where ${passkeys.accountId} = ${id}) as passkeys,
           (select count(*)::int from ${recoveryCodes}
            where ${recoveryCodes.accountId} = ${id} and ${recoveryCodes.usedAt} is null) as codes`);
  const row = rows[0]!;
  return { authenticatorApp: row.app, passkeys: row.passkeys, recoveryCodes: row.codes };
}
