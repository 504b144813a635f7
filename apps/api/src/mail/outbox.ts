import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppConfig } from '../config/env.js';
import { insertSelect, type Database } from '../db/client.js';
import { mailOutbox } from '../db/schema/index.js';
import { isSealed, type KeyService } from '../secrets/key-service.js';

type Executor = Pick<Database, 'insert'>;

export interface Mail {
  to: string;
  subject: string;
  /** Plain text: alerts are read on every kind of mail client, and plain text cannot hide a link. */
  text: string;
}

/** Attempts before a message is given up (logged as failed): about 2 hours of back-off in all. */
export const MAX_ATTEMPTS = 8;
/** Seconds before the next attempt after `attempts` failed ones: 10 s, 20 s, 40 s ... at most 1 hour. */
export const retryDelaySeconds = (attempts: number) => Math.min(3600, 10 * 2 ** Math.max(0, attempts - 1));
/** A claimed message is left to its process this long (longer than SMTP's time-outs), then retried elsewhere. */
const LEASE_SECONDS = 300;
/** How often every process looks for due mail (another process's, or a retry). */
const POLL_MS = 5_000;
/** Sent messages are kept this many days (the outbox holds addresses), then swept. */
const KEEP_SENT_DAYS = 7;

/** The context mail bodies are sealed under: a sealed body copied into another table does not open there. */
const BODY_CONTEXT = 'mail_outbox:body';

/**
 * Queues a message in the caller's transaction: it is sent only if that transaction commits, and a failed send never
 * fails the member's action (the delivery happens afterwards, retried). The body, which may hold a one-time link, is
 * stored sealed by the key service until it is sent, and blanked then.
 */
export async function enqueueMail(db: Executor, mail: Mail, secrets: KeyService): Promise<void> {
  await db.insert(mailOutbox).values(await sealedMail(mail, secrets));
}

/** A message's outbox row as it is queued: its body sealed by the key service (for a statement that queues it). */
export async function sealedMail(
  mail: Mail,
  secrets: KeyService,
): Promise<{ recipient: string; subject: string; body: string }> {
  return { recipient: mail.to, subject: mail.subject, body: await secrets.seal(mail.text, BODY_CONTEXT) };
}

/**
 * The insert that queues a sealed message (`sealedMail`) whose values are SQL (a named statement's placeholders), for a
 * statement that queues it with the change it tells of; the caller may add a condition (`where …`).
 */
export const queueSealedMail = (mail: { recipient: SQL; subject: SQL; body: SQL }) =>
  insertSelect(mailOutbox, [
    [mailOutbox.recipient, mail.recipient],
    [mailOutbox.subject, mail.subject],
    [mailOutbox.body, mail.body],
  ]);

/** A queued message's text, from its body as the outbox keeps it. */
export async function queuedText(body: string, secrets: KeyService): Promise<string> {
  // A body queued before bodies were sealed is still plain text.
  return isSealed(body) ? (await secrets.open(body, BODY_CONTEXT)).toString('utf8') : body;
}

/** The file a message is written to without SMTP: its outbox id, so `mail show N` finds it. */
export const outboxFile = (outboxDir: string, id: number) => path.join(outboxDir, `${String(id).padStart(6, '0')}.eml`);

interface Due {
  id: number;
  recipient: string;
  subject: string;
  body: string;
  attempts: number;
}

/**
 * Delivers the outbox: through SMTP_URL, or without it as .eml files under DATA_DIR/outbox (one log line each). Any
 * number of processes may run one: a message is claimed by moving its next attempt into the future (SKIP LOCKED), so
 * it is sent by one of them, and again only if that one failed or stopped before marking it sent.
 */
export function createMailer({
  db,
  config,
  secrets,
  log,
}: {
  db: Database;
  config: AppConfig['mail'];
  secrets: KeyService;
  log: { info: (message: string) => void; warn: (message: string) => void; error: (message: string) => void };
}) {
  const transport: Transporter = config.smtpUrl
    ? nodemailer.createTransport({
        url: config.smtpUrl,
        connectionTimeout: 20_000,
        greetingTimeout: 20_000,
        socketTimeout: 60_000,
      })
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  /** Due messages, claimed for this process, in the order queued (an UPDATE returns its rows in any order). */
  async function claim(): Promise<Due[]> {
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          isNull(mailOutbox.sentAt),
          isNull(mailOutbox.failedAt),
          lte(mailOutbox.nextAttemptAt, sql`clock_timestamp()`),
        ),
      )
      .orderBy(mailOutbox.id)
      .limit(20)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(mailOutbox)
      .set({
        attempts: sql`${mailOutbox.attempts} + 1`,
        nextAttemptAt: sql`clock_timestamp() + make_interval(secs => ${LEASE_SECONDS})`,
      })
      .where(inArray(mailOutbox.id, due))
      .returning({
        id: mailOutbox.id,
        recipient: mailOutbox.recipient,
        subject: mailOutbox.subject,
        body: mailOutbox.body,
        attempts: mailOutbox.attempts,
      });
    return claimed.sort((a, b) => a.id - b.id);
  }

  /** The outbox folder, there and this user's alone: a message may hold a one-time link. */
  async function folderReady() {
    await fs.mkdir(config.outboxDir, { recursive: true, mode: 0o700 });
    await fs.chmod(config.outboxDir, 0o700);
  }

  async function deliver(mail: Due, ready: () => Promise<void>): Promise<string> {
    const info = (await transport.sendMail({
      from: config.from,
      to: mail.recipient,
      subject: mail.subject,
      text: await queuedText(mail.body, secrets),
    })) as { message?: Buffer | string; messageId?: string };
    // Log lines name the message by its id: who it went to stays in the outbox table, not in the logs.
    if (config.smtpUrl) return 'sent over SMTP';
    await ready();
    const file = outboxFile(config.outboxDir, mail.id);
    await fs.writeFile(`${file}.partial`, info.message ?? '', { mode: 0o600 });
    await fs.rename(`${file}.partial`, file);
    return `written to ${file} (no SMTP_URL)`;
  }

  /** Messages of one claim that went, marked sent in one statement (till then the claim's lease keeps them). */
  async function markSent(sent: { mail: Due; where: string }[]) {
    if (sent.length === 0) return;
    await db
      .update(mailOutbox)
      // Once sent, the text (and any link in it) is of no use here: the record keeps who, what and when.
      .set({ sentAt: sql`clock_timestamp()`, lastError: null, body: '' })
      .where(
        inArray(
          mailOutbox.id,
          sent.map(({ mail }) => mail.id),
        ),
      );
    for (const { mail, where } of sent) log.info(`mail ${mail.id} "${mail.subject}" ${where}`);
  }

  async function drain() {
    for (;;) {
      const due = await claim();
      if (due.length === 0) return;
      // The folder is made ready once for the claim's messages; should that fail, each of them fails with it.
      let folder: Promise<void> | undefined;
      const ready = () => (folder ??= folderReady());
      const sent: { mail: Due; where: string }[] = [];
      for (const mail of due) {
        try {
          sent.push({ mail, where: await deliver(mail, ready) });
          // Over SMTP each is marked as it goes: a slow server could otherwise keep sent messages unmarked till the
          // claim's lease ends, and another process would send them again. Files are written in milliseconds.
          if (config.smtpUrl) await markSent(sent.splice(0));
        } catch (error) {
          const reason = (error as Error).message.slice(0, 500);
          const final = mail.attempts >= MAX_ATTEMPTS;
          await db
            .update(mailOutbox)
            .set({
              lastError: reason,
              nextAttemptAt: sql`clock_timestamp() + make_interval(secs => ${retryDelaySeconds(mail.attempts)})`,
              ...(final ? { failedAt: sql`clock_timestamp()` } : {}),
            })
            .where(eq(mailOutbox.id, mail.id))
            .catch(() => undefined);
          if (final) log.error(`mail ${mail.id} "${mail.subject}" given up after ${mail.attempts} attempts: ${reason}`);
          else
            log.warn(
              `mail ${mail.id} "${mail.subject}" not sent (attempt ${mail.attempts}), retried in ${retryDelaySeconds(mail.attempts)} s: ${reason}`,
            );
        }
      }
      await markSent(sent);
    }
  }

  /** Runs one delivery pass now, or right after the one under way. */
  function kick(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((error: unknown) => log.warn(`mail delivery paused: ${(error as Error).message}`))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          void kick();
        }
      });
    return running;
  }

  return {
    kick,
    start() {
      const tick = () => {
        void kick().finally(() => {
          if (stopped) return;
          timer = setTimeout(tick, POLL_MS);
          timer.unref();
        });
      };
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      transport.close();
    },
  };
}
export type Mailer = ReturnType<typeof createMailer>;

/** Sent messages older than a week go (they hold addresses); failed ones stay for an operator to see. */
export async function sweepSentMail(db: Database): Promise<void> {
  await db
    .delete(mailOutbox)
    .where(lt(mailOutbox.sentAt, sql`clock_timestamp() - make_interval(days => ${KEEP_SENT_DAYS})`));
}
