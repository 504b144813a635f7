import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { CONSOLE_ROLES } from '@ums/contracts/roles';
import type { AppConfig } from '../config/env.js';
import { createAccountService } from '../identity/accounts.service.js';
import { createOperatorGroups } from '../modules/admin/members.js';
import { HttpError } from '../plugins/http-errors.js';
import { backupDatabase, BackupError, restoreDatabase } from '../db/backup.js';
import {
  assertPrivateFolder,
  BACKUP_MESSAGES,
  isSealedBackup,
  openSealedBackup,
  sealingStream,
} from '../db/sealed-backup.js';
import { paths, type DatabaseHandle, type OpenDatabaseOptions } from '../runtime.js';
import { listOutbox, showOutboxMessage } from '../mail/outbox-files.js';
import { seedDemoData } from '../seed/demo-data.js';
import { createAccountDeletion } from '../modules/self-service/account-deletion.js';
import { longestSignedTokenSeconds, rotateProviderKeys } from '../identity/oidc-keys.js';
import { unwrapDataKey, wrapDataKey } from '../secrets/key-service.js';
import { rotateSecretsKey } from '../secrets/rotation.js';
import { loadSecretsKey } from '../secrets/secrets-key.js';
import { openSecrets, secretsKeySource } from '../secrets/secrets.js';

export const USAGE = `Usage: npm run cli -- <command>

Commands:
  users ...  The embedded provider's accounts (with another provider, manage its users there)
  users add --email E --password P [--admin] [--first-name F --last-name L] [--unverified]
            --unverified: the address is not known to be the member's (an import); the member directory says so
  users set-password --email E --password P
  users list
  users remove --email E
  users end-sessions --email E
            Sign the account out everywhere: its sessions end and its tokens stop working at once
  users grant --email E --role Admin|Support|Catalog
  users revoke --email E --role Admin|Support|Catalog
            Give or take a console role (README, "Console roles"); the last Admin cannot be revoked
  users grant-admin --email E
  users revoke-admin --email E
            The same as grant or revoke with --role Admin
  seed      Load the demo catalog, packages, memberships and the demo member's data
            (also into a DATABASE_URL database; existing memberships are left alone)
  backup --out FILE
            Write a backup of the whole database: one consistent snapshot, compressed and sealed with
            BACKUP_PASSPHRASE (mode 0600, into a folder only you can write to); the server may keep running
  restore --in FILE [--replace]
            Load a backup into an empty database (--replace: throw the current contents away first), opened with
            BACKUP_PASSPHRASE; stop the server first, then start it: members stay signed in
  purge     Delete the closed accounts whose grace period (DELETION_GRACE_DAYS) is over, keeping their orders
            anonymised; the server does it once a day by itself
  secrets rotate
            Rotate the key that seals secrets at rest (DATA_DIR/secrets.key, SECRETS_KEY_FILE or SECRETS_KEY; see
            README): every data key is rewrapped under the new key while the servers keep serving
  keys rotate
            A new token signing key and cookie key: each server signs with them from its next start, the old ones
            keep verifying, and a signing key retired longer ago than a token lives is dropped
  mail list Messages written to the outbox folder (DATA_DIR/outbox: there is no SMTP_URL)
  mail show N
            One of those messages, as the member would read it
  help      Show this help`;

export interface CliContext {
  config: AppConfig;
  openDatabase: (options?: Pick<OpenDatabaseOptions, 'migrate' | 'as'>) => Promise<DatabaseHandle>;
  out: (line: string) => void;
  err: (line: string) => void;
}

class UsageError extends Error {}
/** A command that cannot be carried out in this configuration: its sentence alone, without the usage. */
class RefusedError extends Error {}

/** The users commands: the type checker holds the switch that runs them to exactly these. */
const USERS_COMMANDS = [
  'add',
  'set-password',
  'list',
  'remove',
  'end-sessions',
  'grant',
  'revoke',
  'grant-admin',
  'revoke-admin',
] as const;
type UsersCommand = (typeof USERS_COMMANDS)[number];
const isUsersCommand = (sub: string | undefined): sub is UsersCommand =>
  (USERS_COMMANDS as readonly (string | undefined)[]).includes(sub);

const FLAGS = {
  email: { type: 'string' },
  password: { type: 'string' },
  admin: { type: 'boolean' },
  unverified: { type: 'boolean' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  out: { type: 'string' },
  in: { type: 'string' },
  replace: { type: 'boolean' },
  role: { type: 'string' },
} as const;

type Flag = keyof typeof FLAGS;

function parse(args: string[], allowed: Flag[], required: Flag[]) {
  const options = Object.fromEntries(allowed.map((flag) => [flag, FLAGS[flag]]));
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const missing = required.filter((flag) => typeof values[flag] !== 'string' || values[flag] === '');
  if (missing.length > 0) throw new UsageError(`Missing ${missing.map((f) => `--${f}`).join(', ')}`);
  return values as Record<Flag, string | undefined> & { admin?: boolean; replace?: boolean; unverified?: boolean };
}

/** Runs one operator command; the answer is the exit code. Bad input changes nothing. */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  const [command, sub, ...rest] = argv;
  // The words after a command that has no subcommand (seed, backup, restore).
  const flags = argv.slice(1);
  try {
    if (!command || command === 'help' || command === '--help') {
      ctx.out(USAGE);
      return command ? 0 : 1;
    }
    if (command === 'seed') {
      parse(flags, [], []);
      return await withDatabase(ctx, async (database) => {
        // The demo history is not loaded here: it comes with the embedded database's first start, after the demo
        // accounts (which a database with accounts would not get), and never into a database of the operator's.
        await seedDemoData(database.db, ctx.config.catalogFile);
        ctx.out('Demo data loaded.');
      });
    }
    if (command === 'backup') {
      const f = parse(flags, ['out'], ['out']);
      const passphrase = ctx.config.backupPassphrase;
      if (!passphrase) throw new BackupError(BACKUP_MESSAGES.passphraseMissing);
      const file = path.resolve(f.out!);
      await assertPrivateFolder(path.dirname(file)).catch((error: unknown) => {
        if (error instanceof BackupError) throw error;
        throw new UsageError(`Cannot write ${file}: its folder does not exist or cannot be read`);
      });
      return await withOwnerDatabase(ctx, async (database) => {
        const partial = `${file}.partial`;
        // A partial file left by an interrupted run could carry a wider mode: the backup is always a new 0600 file.
        await fs.rm(partial, { force: true });
        const sealed = await sealingStream(passphrase);
        // The data keys go into the sealed file open: it restores with the passphrase alone, on any machine.
        const { kek, previous } = await loadSecretsKey(secretsKeySource(ctx.config));
        const written = pipeline(sealed, createWriteStream(partial, { mode: 0o600 }));
        const header = await backupDatabase(database.pool, sealed, {
          openDataKey: (key) => unwrapDataKey(key, [kek, ...previous]),
        })
          .then(async (done) => {
            await written;
            return done;
          })
          .catch(async (error: unknown) => {
            sealed.destroy();
            await written.catch(() => undefined);
            await fs.rm(partial, { force: true });
            throw error;
          });
        await fs.rename(partial, file);
        const rows = header.tables.reduce((sum, t) => sum + t.rows, 0);
        ctx.out(
          `Backup written to ${file}: ${header.tables.length} tables, ${rows} rows (database schema ${header.migrations}).`,
        );
      });
    }
    if (command === 'restore') {
      const f = parse(flags, ['in', 'replace'], ['in']);
      const file = path.resolve(f.in!);
      const sealed = await isSealedBackup(file).catch(() => {
        throw new UsageError(`Cannot read ${file}: no such file, or not readable`);
      });
      // Opened (and its seal checked) before the database is: a wrong passphrase or a changed file changes nothing.
      const input = sealed ? await openSealedBackup(file, ctx.config.backupPassphrase) : createReadStream(file);
      if (!sealed) {
        await once(input, 'open').catch(() => {
          throw new UsageError(`Cannot read ${file}: no such file, or not readable`);
        });
      }
      return await withDatabase(
        ctx,
        async (database) => {
          if (database.sharedWithServer) {
            throw new BackupError(
              'A UMS server is running on this data directory: stop it first (a restore replaces its database), then start it again.',
            );
          }
          try {
            // This machine's key (created now on a new embedded install) wraps the data keys the backup carries.
            const { kek } = await loadSecretsKey(secretsKeySource(ctx.config));
            const header = await restoreDatabase(database.db, database.pool, input, {
              migrationsFolder: paths.migrations,
              replace: f.replace === true,
              wrapDataKey: (id, key) => ({ kekId: kek.id, wrapped: wrapDataKey(id, key, kek) }),
            });
            const rows = header.tables.reduce((sum, t) => sum + t.rows, 0);
            ctx.out(`Restored ${file}: ${header.tables.length} tables, ${rows} rows, taken ${header.createdAt}.`);
          } finally {
            input.destroy();
          }
        },
        // As the owner: it drops and builds the schema; the next start grants the application role again.
        { migrate: false, as: 'owner' },
      );
    }
    if (command === 'purge') {
      parse(flags, [], []);
      return await withDatabase(ctx, async (database) => {
        const { keys: secrets } = await openSecrets(ctx.config, database.db);
        const deletion = createAccountDeletion({ db: database.db, config: ctx.config, secrets });
        const purged = await deletion.purgeDue();
        const orders = purged.reduce((sum, p) => sum + p.ordersAnonymised, 0);
        ctx.out(
          purged.length === 0
            ? 'No closed account is due for deletion.'
            : `Deleted ${purged.length} closed account${purged.length === 1 ? '' : 's'}; ${orders} order${orders === 1 ? '' : 's'} kept anonymised.`,
        );
      });
    }
    if (command === 'secrets' && sub === 'rotate') {
      parse(rest, [], []);
      return await withDatabase(ctx, async (database) => {
        const rotation = await rotateSecretsKey(ctx.config, database.db);
        ctx.out(
          `Secrets key rotated: ${rotation.rewrapped} data key${rotation.rewrapped === 1 ? '' : 's'} now wrapped under key ${rotation.kekId}.`,
        );
        ctx.out(
          rotation.keyFile
            ? `The new key is the first line of ${rotation.keyFile}, the old one the second until the next rotation; back the file up apart from the database backups.`
            : 'Remove SECRETS_KEY_PREVIOUS from every server once they all run with the new SECRETS_KEY.',
        );
      });
    }
    if (command === 'keys' && sub === 'rotate') {
      parse(rest, [], []);
      return await withDatabase(ctx, async (database) => {
        const { keys: secrets } = await openSecrets(ctx.config, database.db);
        const rotation = await rotateProviderKeys(database.db, secrets, {
          keepRetiredSeconds: longestSignedTokenSeconds(ctx.config),
        });
        ctx.out(
          `New signing key ${rotation.signingKid}: each server signs with it from its next start (restart them one by one); the previous key keeps verifying.`,
        );
        if (rotation.dropped.length > 0)
          ctx.out(`Dropped signing keys retired long enough: ${rotation.dropped.join(', ')}.`);
      });
    }
    if (command === 'mail') return await mailCommand(ctx, sub, rest);
    if (command !== 'users') throw new UsageError(`Unknown command "${command}"`);
    // An unknown or missing users command is a usage mistake, whatever the provider.
    if (!isUsersCommand(sub)) throw new UsageError(sub ? `Unknown users command "${sub}"` : 'Name a users command');
    const { auth } = ctx.config;
    if (!auth.embedded) {
      // Its rows would change, but no sign-in reads them: the other provider keeps its own users.
      throw new RefusedError(
        `The users commands manage the embedded provider's accounts, and AUTH_ISSUER names another provider (${auth.issuer}): manage its users there.`,
      );
    }

    switch (sub) {
      case 'add': {
        const f = parse(
          rest,
          ['email', 'password', 'admin', 'first-name', 'last-name', 'unverified'],
          ['email', 'password'],
        );
        return await withAccounts(ctx, async (accounts) => {
          const account = await accounts.add({
            email: f.email!,
            password: f.password!,
            admin: f.admin === true,
            firstName: f['first-name'] ?? null,
            lastName: f['last-name'] ?? null,
            emailVerified: f.unverified !== true,
          });
          ctx.out(`Added ${account.email}${f.admin ? ' (Admin)' : ''}${f.unverified ? ' (email not verified)' : ''}.`);
        });
      }
      case 'set-password': {
        const f = parse(rest, ['email', 'password'], ['email', 'password']);
        return await withAccounts(ctx, async (accounts) => {
          await accounts.setPassword(f.email!, f.password!);
          ctx.out(`Password changed for ${f.email}.`);
        });
      }
      case 'list': {
        parse(rest, [], []);
        return await withAccounts(ctx, async (accounts) => {
          const list = await accounts.list();
          if (list.length === 0) ctx.out('No accounts.');
          for (const a of list) {
            const name = [a.firstName, a.lastName].filter(Boolean).join(' ');
            ctx.out(`${a.email}\t${a.groups.join(',') || '-'}\t${name || '-'}\t${a.createdAt.toISOString()}`);
          }
        });
      }
      case 'remove': {
        const f = parse(rest, ['email'], ['email']);
        return await withAccounts(ctx, async (accounts) => {
          await accounts.remove(f.email!);
          ctx.out(`Removed ${f.email}.`);
        });
      }
      case 'end-sessions': {
        const f = parse(rest, ['email'], ['email']);
        return await withAccounts(ctx, async (accounts) => {
          await accounts.endSessions(f.email!);
          ctx.out(`Every session of ${f.email} has ended.`);
        });
      }
      case 'grant':
      case 'revoke':
      case 'grant-admin':
      case 'revoke-admin': {
        const admin = sub.endsWith('-admin');
        const f = admin ? parse(rest, ['email'], ['email']) : parse(rest, ['email', 'role'], ['email', 'role']);
        const role = admin ? 'Admin' : CONSOLE_ROLES.find((name) => name.toLowerCase() === f.role!.toLowerCase());
        if (!role) throw new UsageError(`--role must be one of ${CONSOLE_ROLES.join(', ')} (got "${f.role}")`);
        const { roleGroups } = ctx.config.auth;
        const group = roleGroups[role];
        return await withDatabase(ctx, async (database) => {
          // As the member page changes them: audited, the tokens voided, the member mailed (through the outbox).
          const { keys: secrets } = await openSecrets(ctx.config, database.db);
          const groups = createOperatorGroups({ db: database.db, config: ctx.config, secrets });
          const granting = sub.startsWith('grant');
          const changed = granting ? await groups.grant(f.email!, group) : await groups.revoke(f.email!, group);
          ctx.out(
            `${f.email} ${granting ? 'is now in' : 'is no longer in'} the ${group} group` +
              (changed ? '.' : ` (${granting ? 'it already was' : 'it was not in it'}).`),
          );
        });
      }
      default:
        // Every users command has its case: a new one without it fails the type check here.
        throw new Error(`The users command ${sub satisfies never} has no case`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.err(`${error.message}.\n\n${USAGE}`);
      return 1;
    }
    if (error instanceof HttpError || error instanceof BackupError || error instanceof RefusedError) {
      ctx.err(error.message);
      return 1;
    }
    throw error;
  }
}

async function withDatabase(
  ctx: CliContext,
  work: (database: DatabaseHandle) => Promise<void>,
  options?: Pick<OpenDatabaseOptions, 'migrate' | 'as'>,
): Promise<number> {
  const database = await ctx.openDatabase(options);
  try {
    await work(database);
    return 0;
  } finally {
    await database.close();
  }
}

/** As the tables' owner (decision 025): the backup reads the whole database, the migrations' own table included. */
const withOwnerDatabase = (ctx: CliContext, work: (database: DatabaseHandle) => Promise<void>) =>
  withDatabase(ctx, work, { as: 'owner' });

const withAccounts = (ctx: CliContext, work: (accounts: ReturnType<typeof createAccountService>) => Promise<void>) =>
  withDatabase(ctx, (database) =>
    work(createAccountService({ db: database.db, adminGroup: ctx.config.auth.roleGroups.Admin })),
  );

/** Reads the outbox folder: no database needed, so it works while the server runs or not. */
async function mailCommand(ctx: CliContext, sub: string | undefined, rest: string[]): Promise<number> {
  const where = ctx.config.mail.outboxDir;
  if (sub === 'list') {
    parse(rest, [], []);
    const entries = await listOutbox(where);
    if (entries.length === 0) {
      ctx.out(
        ctx.config.mail.smtpUrl
          ? 'No messages in the outbox folder: mail goes through SMTP_URL.'
          : `No messages in ${where} yet.`,
      );
    }
    for (const e of entries) ctx.out(`${e.number}\t${e.date?.toISOString() ?? '-'}\t${e.to}\t${e.subject}`);
    return 0;
  }
  if (sub === 'show') {
    const [number, ...extra] = rest;
    if (!number || !/^\d{1,9}$/.test(number) || extra.length > 0) {
      throw new UsageError('mail show needs the number of a message, as mail list shows it');
    }
    const message = await showOutboxMessage(where, Number(number));
    if (message === null) {
      ctx.err(`There is no message ${number} in ${where}: mail list shows the numbers.`);
      return 1;
    }
    ctx.out(message);
    return 0;
  }
  throw new UsageError(sub ? `Unknown mail command "${sub}"` : 'Name a mail command: list or show N');
}
