import type { AdminMember, AdminMemberDetails } from '@ums/contracts';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { revokeAccount } from '../../identity/revocations.js';
import { endAccountSessions } from '../../identity/sessions.js';
import type { SecurityService } from '../../identity/security.service.js';
import { conflict, notFound } from '../../plugins/http-errors.js';
import type { MyData } from '../self-service/my-data.js';
import { appendAudit, type Actor } from './audit.js';
import { MEMBER_FROM, MEMBER_ITEM } from './members.lists.js';

type Executor = Pick<Database, 'execute'>;

export const MEMBER_MESSAGES = {
  sessionsEnded: 'Every session of the member has ended',
  groupsSaved: 'Groups saved',
  ownAdmin: 'You cannot remove your own Admin group: ask another administrator.',
} as const;

/**
 * The administrators' member directory: who a member is and what they bought, read-only for personal data (support
 * sees, the member edits), plus the two things support may do: end a member's sessions and change their groups.
 * Both are audited in the transaction that makes them.
 */
export function createMemberDirectory({
  db,
  myData,
  security,
  adminGroup,
}: {
  db: Database;
  myData: MyData;
  security: SecurityService;
  adminGroup: string;
}) {
  async function entry(tx: Executor, id: string): Promise<AdminMember> {
    const { rows } = await tx.execute<{ member: AdminMember }>(
      sql`select ${sql.raw(MEMBER_ITEM)} as member from ${sql.raw(MEMBER_FROM)} where a.account_id = ${id}::uuid`,
    );
    if (!rows[0]) throw notFound('The member');
    return rows[0].member;
  }

  return {
    async details(id: string): Promise<AdminMemberDetails> {
      const member = await entry(db, id);
      const data = await myData.collect(id);
      const list = (value: unknown) => (Array.isArray(value) ? (value as Record<string, unknown>[]) : []);
      return {
        member,
        personalInformation: (data['personalInformation'] as Record<string, unknown> | null) ?? null,
        orders: list(data['orders']),
        subscriptions: list(data['subscriptions']),
        sessions: await security.listSessions(id, null),
        securityActivity: list(data['securityActivity']),
      };
    },

    /** Signs the member out everywhere: their sessions end and their tokens stop working on every process. */
    async endSessions(actor: Actor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        await entry(tx, id);
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
     * Replaces the member's groups. The member's tokens are voided so their next one carries the new groups; an
     * administrator cannot take their own Admin group away (someone must be left to give it back).
     */
    async setGroups(actor: Actor, id: string, groups: string[]): Promise<AdminMember> {
      return db.transaction(async (tx) => {
        const { rows } = await tx.execute<{ groups: string[] }>(
          sql`select groups from accounts where account_id = ${id}::uuid for update`,
        );
        if (!rows[0]) throw notFound('The member');
        const before = rows[0].groups;
        if (actor.id === id && before.includes(adminGroup) && !groups.includes(adminGroup)) {
          throw conflict(MEMBER_MESSAGES.ownAdmin);
        }
        const same = before.length === groups.length && before.every((group, i) => group === groups[i]);
        if (!same) {
          await tx.execute(sql`
            update accounts set groups = array(select jsonb_array_elements_text(${JSON.stringify(groups)}::jsonb)),
              updated_at = now()
            where account_id = ${id}::uuid`);
          await revokeAccount(tx, id);
          await appendAudit(tx, {
            actor,
            action: 'member-groups-changed',
            entity: 'member',
            entityId: id,
            before: { groups: before },
            after: { groups },
          });
        }
        return entry(tx, id);
      });
    },
  };
}

export type MemberDirectory = ReturnType<typeof createMemberDirectory>;
