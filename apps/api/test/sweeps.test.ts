import { describe, expect, it } from 'vitest';
import { createAccountService } from '../src/identity/accounts.service.js';
import { sweepPasswordResets } from '../src/identity/password-reset.js';
import { sweepSecurityEvents } from '../src/identity/security-events.js';
import { sweepSecurityDetails } from '../src/identity/security.service.js';
import { sweepSentMail } from '../src/mail/outbox.js';
import { testDatabase } from './helper.js';

const database = await testDatabase();
const { pool } = database;
/** The sweeps run as a server runs them: as the application role. */
const app = database.appRole.db;

const column = async (statement: string) => (await pool.query<{ v: string }>(statement)).rows.map((r) => r.v).sort();

describe('the sweeps a server runs on its timers', () => {
  it('forget security activity older than 90 days and keep the rest', async () => {
    await pool.query(
      `insert into security_events (subject, event, browser, os, at) values
         ('m-1', 'old', 'Chrome', 'Linux', now() - interval '91 days'),
         ('m-1', 'recent', 'Chrome', 'Linux', now() - interval '89 days'),
         ('m-1', 'today', 'Chrome', 'Linux', now())`,
    );
    await sweepSecurityEvents(app);
    expect(await column(`select event as v from security_events`)).toEqual(['recent', 'today']);
  });

  it('forget sent mail older than a week, keep newer sent mail, unsent mail and failed mail whatever their age', async () => {
    await pool.query(
      `insert into mail_outbox (recipient, subject, body, sent_at, failed_at) values
         ('a@example.com', 'sent long ago', '', now() - interval '8 days', null),
         ('a@example.com', 'sent this week', '', now() - interval '6 days', null),
         ('a@example.com', 'not sent yet', 'sealed', null, null),
         ('a@example.com', 'failed long ago', 'sealed', null, now() - interval '30 days')`,
    );
    await sweepSentMail(app);
    expect(await column(`select subject as v from mail_outbox`)).toEqual([
      'failed long ago',
      'not sent yet',
      'sent this week',
    ]);
  });

  it('forget reset links a day past their expiry and keep those expired less long ago or still valid', async () => {
    const account = await createAccountService({ db: database.db }).add({
      email: 'sweeps@example.com',
      password: 'Sweeps-Pass-42!',
    });
    await pool.query(
      `insert into password_resets (account_id, token_hash, expires_at) values
         ($1, 'long past', now() - interval '25 hours'),
         ($1, 'just past', now() - interval '23 hours'),
         ($1, 'valid', now() + interval '30 minutes')`,
      [account.accountId],
    );
    await sweepPasswordResets(app);
    expect(await column(`select token_hash as v from password_resets`)).toEqual(['just past', 'valid']);
  });

  it("forget a session's device details an hour after the session is gone, keep a live session's however old, and forget devices unseen for over 400 days", async () => {
    await pool.query(
      `insert into oidc_payloads (model, id, payload, uid, expires_at)
       values ('Session', 'live-session', '{}'::jsonb, 'live', now() + interval '1 hour')`,
    );
    await pool.query(
      `insert into session_details (session_uid, account_id, browser, os, last_active_at) values
         ('live', 'a-1', 'Chrome', 'Linux', now() - interval '2 days'),
         ('gone', 'a-1', 'Chrome', 'Linux', now() - interval '2 hours'),
         ('just gone', 'a-1', 'Chrome', 'Linux', now() - interval '30 minutes')`,
    );
    await pool.query(
      `insert into known_devices (account_id, device_hash, last_seen_at) values
         ('a-1', 'unseen', now() - interval '401 days'),
         ('a-1', 'seen', now() - interval '399 days')`,
    );
    await sweepSecurityDetails(app);
    expect(await column(`select session_uid as v from session_details`)).toEqual(['just gone', 'live']);
    expect(await column(`select device_hash as v from known_devices`)).toEqual(['seen']);
  });
});
