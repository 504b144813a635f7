import type { SecurityEventName } from '@ums/contracts';
import { SECURITY_ACTIVITY_DAYS } from '@ums/contracts';
import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { securityEvents } from '../db/schema/index.js';
import { summariseUserAgent } from './user-agent.js';

type Executor = Pick<Database, 'insert'>;

/** Who acted and from where: the request's User-Agent and its client address (TRUST_PROXY applied). */
export interface RequestOrigin {
  userAgent: string | undefined;
  ipAddress: string | null;
}

/** Appends one event to the account's security activity, in the caller's transaction when given one. */
export async function recordSecurityEvent(
  db: Executor,
  subject: string,
  event: SecurityEventName,
  origin: RequestOrigin,
): Promise<void> {
  const { browser, os } = summariseUserAgent(origin.userAgent);
  await db.insert(securityEvents).values({ subject, event, browser, os, ipAddress: origin.ipAddress });
}

/** Activity older than 90 days goes, as the member is told. */
export async function sweepSecurityEvents(db: Database): Promise<void> {
  await db
    .delete(securityEvents)
    .where(lt(securityEvents.at, sql`clock_timestamp() - make_interval(days => ${SECURITY_ACTIVITY_DAYS})`));
}

/** Where and how an action was taken, stamped now, as an alert mail tells the member. */
export const alertOrigin = (origin: RequestOrigin) => ({
  at: new Date(),
  ...summariseUserAgent(origin.userAgent),
  ipAddress: origin.ipAddress,
});

/** The origin of a Fastify request: its User-Agent and the client address Fastify derived under TRUST_PROXY. */
export const originOf = (request: {
  headers: Record<string, string | string[] | undefined>;
  ip: string;
}): RequestOrigin => ({
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
  ipAddress: request.ip,
});
