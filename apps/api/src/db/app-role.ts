import { createHmac } from 'node:crypto';
import pg from 'pg';
import { MIGRATION_LOCK_KEY } from './client.js';

// The server's connections use a role that owns nothing (decision 025): it reads and writes rows, but the audit
// trail only grows. The owner (the embedded cluster's superuser, or DATABASE_OWNER_URL) migrates and grants.

/** The embedded PostgreSQL's application role (also the test cluster's). */
export const APP_ROLE = 'ums_app';

/**
 * The functions through which the trail's two allowed changes run as its owner (migration 0019): the price-save fold
 * and the purge's scrub of a closed account's email. The application may call them; it may change no entry itself.
 */
export const AUDIT_FUNCTIONS = [
  'audit_fold_price_save(text, text, text, text, jsonb, jsonb)',
  'audit_scrub_closed_member(text)',
] as const;

/**
 * The embedded application role's password, derived from the owner's (DATA_DIR/pg-password, mode 0600): nothing
 * more is stored, and the server and the CLI on one data directory agree on it without telling each other.
 */
export function appRolePassword(ownerPassword: string): string {
  return createHmac('sha256', ownerPassword).update('ums application role password').digest('base64url');
}

const ROLE_ATTRIBUTES = 'login nosuperuser nocreatedb nocreaterole noreplication nobypassrls noinherit';

/** Creates the role, or brings its attributes and password back to what they must be. Needs CREATEROLE. */
export async function ensureAppRole(owner: pg.Pool | pg.Client, password: string, role: string = APP_ROLE) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { rowCount } = await owner.query('select 1 from pg_roles where rolname = $1', [role]);
      await owner.query(
        `${rowCount ? 'alter' : 'create'} role ${pg.escapeIdentifier(role)} with ${ROLE_ATTRIBUTES} password ${pg.escapeLiteral(password)}`,
      );
      return;
    } catch (error) {
      // Roles are the cluster's: another process (the CLI beside the server) may create or alter it at this moment.
      const code = (error as { code?: unknown }).code;
      if (attempt >= 5 || (code !== '42710' && code !== 'XX000')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/**
 * Grants `role` what the application does, in this database, again after every migration (new tables): rows of
 * every table, but on audit_entries only reading and adding (its two allowed changes through the functions above); never TRUNCATE,
 * never ownership (no ALTER, no disabling a trigger). One transaction, so a running process never sees a gap.
 */
export async function grantAppRole(owner: pg.Pool, role: string) {
  const who = pg.escapeIdentifier(role);
  const client = await owner.connect();
  try {
    await client.query('begin');
    // Two processes granting at once would collide on the same catalog rows; migrations take the same lock.
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`
      revoke all on all tables in schema public from ${who};
      revoke all on all sequences in schema public from ${who};
      grant usage on schema public to ${who};
      grant select, insert, update, delete on all tables in schema public to ${who};
      grant usage, select on all sequences in schema public to ${who};
      alter default privileges in schema public grant select, insert, update, delete on tables to ${who};
      alter default privileges in schema public grant usage, select on sequences to ${who};
    `);
    const { rows } = await client.query<{ present: boolean }>(
      `select to_regclass('public.audit_entries') is not null as present`,
    );
    if (rows[0]!.present) {
      await client.query(`revoke update, delete on audit_entries from ${who}`);
      for (const fn of AUDIT_FUNCTIONS) {
        const { rows: found } = await client.query<{ present: boolean }>(
          `select to_regprocedure($1) is not null as present`,
          [fn],
        );
        if (found[0]!.present) await client.query(`grant execute on function ${fn} to ${who}`);
      }
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Why grants cannot bind `role` (it is a superuser, or owns the tables or may act as their owner), or null when they
 * do. Asked on the owner's connection before granting: revoking from the tables' owner would take its own rights.
 */
export async function appRoleWeakness(owner: pg.Pool, role: string): Promise<string | null> {
  const { rows } = await owner.query<{ superuser: boolean; owner: boolean }>(
    `select r.rolsuper as superuser,
       pg_has_role(r.oid, current_user, 'MEMBER')
       or exists (select 1 from pg_class c where c.relnamespace = 'public'::regnamespace
                    and pg_has_role(r.oid, c.relowner, 'MEMBER')) as owner
     from pg_roles r where r.rolname = $1`,
    [role],
  );
  const found = rows[0];
  if (!found) return 'was not found';
  if (found.superuser) return 'is a superuser';
  if (found.owner) return 'owns the tables';
  return null;
}
