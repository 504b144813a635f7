import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabase, testSecrets } from '../../test/helper.js';
import { statementRecorder } from '../../test/pool-statements.js';
import { smtpInbox } from '../../test/smtp-inbox.js';
import { runCli } from '../cli/commands.js';
import { loadConfig } from '../config/env.js';
import { paths } from '../runtime.js';
import { ALERT_SUBJECTS, securityAlert } from './alerts.js';
import { createMailer, enqueueMail } from './outbox.js';

const database = await testDatabase();
const recorded = statementRecorder(database.pool);
const secrets = testSecrets(database.db);
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-mail-'));
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));
const config = loadConfig({ DATA_DIR: dataDir }, { catalogFile: paths.catalogFile });

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    config,
    openDatabase: () => Promise.reject(new Error('mail commands need no database')),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const alert = securityAlert(
  'new-device',
  {
    company: 'UMS Health',
    publicUrl: 'http://localhost:8080',
    forgotUrl: 'http://localhost:8080/oidc/password/forgot',
    to: 'dana@example.com',
  },
  { at: new Date('2026-11-23T14:05:00Z'), browser: 'Firefox 133', os: 'Linux', ipAddress: '203.0.113.7' },
);

describe('mail without SMTP_URL', () => {
  it('is stored sealed until sent, then written as an .eml file under DATA_DIR/outbox with one log line, and the CLI lists and shows it', async () => {
    expect((await cli('mail', 'list')).out).toBe(`No messages in ${path.join(dataDir, 'outbox')} yet.`);
    const lines: string[] = [];
    const mailer = createMailer({
      db: database.db,
      config: config.mail,
      secrets,
      log: { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) },
    });
    await database.db.transaction((tx) => enqueueMail(tx, alert, secrets));
    // Until it is sent, the text (which may hold a one-time link) is stored sealed: nothing of it reads in the table.
    const queued = await database.pool.query<{ body: string }>('select body from mail_outbox');
    expect(queued.rows).toHaveLength(1);
    expect(queued.rows[0]!.body).toMatch(/^ums-sealed-v1\./);
    for (const line of alert.text.split('\n').filter((l) => l.trim().length > 8)) {
      expect(queued.rows[0]!.body).not.toContain(line.trim());
    }
    // A message queued in a transaction that rolls back is never sent.
    await database.db
      .transaction(async (tx) => {
        await enqueueMail(tx, { ...alert, subject: 'Rolled back' }, secrets);
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    await mailer.kick();
    await mailer.stop();

    const [file] = await fs.readdir(path.join(dataDir, 'outbox'));
    expect(file).toMatch(/^\d{6}\.eml$/);
    const number = Number(file!.slice(0, 6));
    expect(lines).toEqual([
      `mail ${number} "${ALERT_SUBJECTS['new-device']}" written to ${path.join(dataDir, 'outbox', file!)} (no SMTP_URL)`,
    ]);
    // Only this user reads the messages (one may hold a one-time link), and the table no longer holds the text.
    expect((await fs.stat(path.join(dataDir, 'outbox'))).mode & 0o777).toBe(0o700);
    expect((await fs.stat(path.join(dataDir, 'outbox', file!))).mode & 0o777).toBe(0o600);
    const { rows } = await database.pool.query('select body, sent_at from mail_outbox where id = $1', [number]);
    expect(rows).toEqual([{ body: '', sent_at: expect.any(Date) }]);

    const list = await cli('mail', 'list');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(
      new RegExp(`^${number}\\t\\d{4}-\\d\\d-\\d\\dT[^\\t]+\\tdana@example.com\\tNew sign-in to your account$`),
    );

    const shown = await cli('mail', 'show', String(number));
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('From: "UMS Health" <no-reply@localhost>');
    expect(shown.out).toContain('To: dana@example.com');
    expect(shown.out).toContain('Subject: New sign-in to your account');
    expect(shown.out).toContain(
      'Your UMS Health account (dana@example.com) was signed in to from a device we have not seen before, on 23 November 2026 at 14:05 UTC: Firefox 133 on Linux, from the address 203.0.113.7.',
    );
    expect(shown.out).toContain(
      'If it was not you, change your password now (http://localhost:8080/#login-details), then sign out the devices you do not know in the Security section (http://localhost:8080/#security).',
    );

    expect(await cli('mail', 'show', '999')).toMatchObject({
      code: 1,
      err: `There is no message 999 in ${path.join(dataDir, 'outbox')}: mail list shows the numbers.`,
    });
    expect((await cli('mail', 'show', 'one')).code).toBe(1);
    expect((await cli('mail', 'send')).err).toMatch(/^Unknown mail command "send"/);
  });
});

/** A mailer that writes files under `DATA_DIR` = `dataFolder`, and the lines it logs. */
function fileMailer(dataFolder: string) {
  const lines: string[] = [];
  const mailer = createMailer({
    db: database.db,
    config: loadConfig({ DATA_DIR: dataFolder }, { catalogFile: paths.catalogFile }).mail,
    secrets,
    log: { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) },
  });
  return { mailer, lines };
}

describe('mail without SMTP_URL, many at once', () => {
  it('writes every message of one pass as its own file, in the order queued, and marks them sent in one statement', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-mail-many-'));
    const { mailer, lines } = fileMailer(folder);
    const recipients = ['one@example.com', 'two@example.com', 'three@example.com'];
    for (const to of recipients) await enqueueMail(database.db, { ...alert, to }, secrets);
    // The first queued is written again, so PostgreSQL's table holds it after the other two (and an UPDATE would
    // return it last).
    await database.pool.query('update mail_outbox set subject = subject where recipient = $1', [recipients[0]]);
    const sent = await recorded(() => mailer.kick());
    await mailer.stop();
    // The claim of all three, one statement marking them sent, and the claim that found no more.
    expect(sent.map((statement) => statement.text.split(' ', 1)[0])).toEqual(['update', 'update', 'update']);
    expect(sent.filter((statement) => statement.text.includes('"sent_at" ='))).toHaveLength(1);
    const { rows } = await database.pool.query<{ id: number; body: string; sent: boolean }>(
      'select id::int as id, body, sent_at is not null as sent from mail_outbox where recipient = any($1) order by id',
      [recipients],
    );
    expect(rows.map(({ body, sent }) => ({ body, sent }))).toEqual(recipients.map(() => ({ body: '', sent: true })));
    const files = (await fs.readdir(path.join(folder, 'outbox'))).sort();
    expect(files).toEqual(rows.map(({ id }) => `${String(id).padStart(6, '0')}.eml`));
    for (const [i, { id }] of rows.entries()) {
      expect(await fs.readFile(path.join(folder, 'outbox', files[i]!), 'utf8')).toContain(`To: ${recipients[i]}`);
      expect(lines[i]).toBe(
        `mail ${id} "${ALERT_SUBJECTS['new-device']}" written to ${path.join(folder, 'outbox', files[i]!)} (no SMTP_URL)`,
      );
    }
    await fs.rm(folder, { recursive: true, force: true });
  });

  it('fails each message of the pass, to be retried, when the outbox folder cannot be made', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-mail-blocked-'));
    // A file where the outbox folder should be.
    await fs.writeFile(path.join(folder, 'outbox'), 'not a folder');
    const { mailer, lines } = fileMailer(folder);
    const recipients = ['four@example.com', 'five@example.com'];
    for (const to of recipients) await enqueueMail(database.db, { ...alert, to }, secrets);
    await mailer.kick();
    await mailer.stop();
    const { rows } = await database.pool.query<{ id: number; sent: boolean; error: string; attempts: number }>(
      `select id::int as id, sent_at is not null as sent, last_error as error, attempts from mail_outbox
       where recipient = any($1) order by id`,
      [recipients],
    );
    expect(rows.map(({ sent, error, attempts }) => ({ sent, error, attempts }))).toEqual(
      recipients.map(() => ({ sent: false, error: expect.stringContaining('EEXIST'), attempts: 1 })),
    );
    expect(lines).toEqual(
      rows.map(
        ({ id }) =>
          `mail ${id} "${ALERT_SUBJECTS['new-device']}" not sent (attempt 1), retried in 10 s: ${rows[0]!.error}`,
      ),
    );
    // Given up here, so no later test's mailer sends them.
    await database.pool.query('update mail_outbox set failed_at = now() where recipient = any($1)', [recipients]);
    await fs.rm(folder, { recursive: true, force: true });
  });
});

describe('mail over SMTP', () => {
  it('is logged by its id and subject, never its recipient, and its text is not kept once sent', async () => {
    const inbox = await smtpInbox();
    const smtpConfig = loadConfig({ DATA_DIR: dataDir, SMTP_URL: inbox.url }, { catalogFile: paths.catalogFile });
    const lines: string[] = [];
    const mailer = createMailer({
      db: database.db,
      config: smtpConfig.mail,
      secrets,
      log: { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) },
    });
    const recipient = 'erin@example.com';
    await database.db.transaction((tx) => enqueueMail(tx, { ...alert, to: recipient }, secrets));
    await mailer.kick();
    await mailer.stop();
    expect(inbox.received.map((mail) => mail.subject)).toEqual([ALERT_SUBJECTS['new-device']]);
    const { rows } = await database.pool.query<{ id: number; body: string }>(
      'select id::int as id, body from mail_outbox where recipient = $1',
      [recipient],
    );
    expect(rows).toEqual([{ id: expect.any(Number), body: '' }]);
    expect(lines).toEqual([`mail ${rows[0]!.id} "${ALERT_SUBJECTS['new-device']}" sent over SMTP`]);
  });
});

describe('mail configuration', () => {
  it('refuses an SMTP_URL that is not smtp:// or smtps:// without echoing it (it may hold a password)', () => {
    expect(() =>
      loadConfig({ SMTP_URL: 'http://user:secret@mail.example.com' }, { catalogFile: paths.catalogFile }),
    ).toThrow('SMTP_URL: must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com:465');
    try {
      loadConfig({ SMTP_URL: 'http://user:secret@mail.example.com' }, { catalogFile: paths.catalogFile });
    } catch (error) {
      expect((error as Error).message).not.toContain('secret');
    }
    expect(() => loadConfig({ MAIL_FROM: 'not an address' }, { catalogFile: paths.catalogFile })).toThrow(
      'MAIL_FROM: must be an address such as "UMS Health <no-reply@example.com>" (got "not an address")',
    );
  });
});
