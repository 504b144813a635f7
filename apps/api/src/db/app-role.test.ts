import { describe, expect, inject, it } from 'vitest';
import { testDatabase } from '../../test/helper.js';
import { APP_ROLE, grantAppRole } from './app-role.js';

const database = await testDatabase();
const owner = database.pool;
const app = database.appRole.pool;
const separate = inject('appRole') !== null;

const PERMISSION_DENIED = /permission denied for table audit_entries/;

async function entry(label: string | null = 'Someone') {
  const { rows } = await app.query<{ id: string }>(
    `insert into audit_entries (actor_id, actor_email, action, entity, entity_id, before, after, label)
     values ('admin-roles', 'admin@roles.example', 'member-groups-changed', 'member', $1, '{}', '{}', $2) returning id`,
    [`gone-${Math.random()}`, label],
  );
  return rows[0]!.id;
}

describe.skipIf(!separate)('the application role', () => {
  it('is not the role that owns the tables', async () => {
    const [{ rows: asApp }, { rows: asOwner }] = await Promise.all([
      app.query<{ who: string }>('select current_user as who'),
      owner.query<{ who: string }>(`select tableowner as who from pg_tables where tablename = 'audit_entries'`),
    ]);
    expect(asApp[0]!.who).toBe(APP_ROLE);
    expect(asOwner[0]!.who).not.toBe(APP_ROLE);
  });

  it('adds audit entries but cannot delete, change or truncate them, even with the triggers switched off', async () => {
    const id = await entry();
    await owner.query('alter table audit_entries disable trigger user');
    try {
      await expect(app.query('delete from audit_entries where id = $1', [id])).rejects.toThrow(PERMISSION_DENIED);
      await expect(
        app.query(`update audit_entries set actor_email = 'someone@else.example' where id = $1`, [id]),
      ).rejects.toThrow(PERMISSION_DENIED);
      await expect(app.query(`update audit_entries set action = 'tampered' where id = $1`, [id])).rejects.toThrow(
        PERMISSION_DENIED,
      );
      await expect(app.query('truncate audit_entries')).rejects.toThrow(PERMISSION_DENIED);
    } finally {
      await owner.query('alter table audit_entries enable trigger user');
    }
    const { rows } = await owner.query('select actor_email, action from audit_entries where id = $1', [id]);
    expect(rows).toEqual([{ actor_email: 'admin@roles.example', action: 'member-groups-changed' }]);
  });

  it('cannot switch the triggers off, drop them or change the table: that is the owner', async () => {
    await expect(app.query('alter table audit_entries disable trigger user')).rejects.toThrow(/must be owner/);
    await expect(app.query('drop trigger audit_entries_no_truncate on audit_entries')).rejects.toThrow(/must be owner/);
    await expect(app.query('create table stash (id int)')).rejects.toThrow(/permission denied for schema public/);
  });

  it("may change no entry itself; through the owner's functions it empties a closed member's label, and the fold finds nothing of another's to fold", async () => {
    const { rows } = await owner.query<{ column: string }>(
      `select column_name as column from information_schema.column_privileges
       where table_name = 'audit_entries' and grantee = $1 and privilege_type = 'UPDATE' order by column_name`,
      [APP_ROLE],
    );
    expect(rows).toEqual([]);
    const id = await entry();
    await expect(app.query('update audit_entries set label = null where id = $1', [id])).rejects.toThrow(
      PERMISSION_DENIED,
    );
    // An entry about a member whose account is gone: the owner's function may empty its label, and only that.
    const { rows: about } = await owner.query<{ member: string }>(
      'select entity_id as member from audit_entries where id = $1',
      [id],
    );
    await app.query('select audit_scrub_closed_member($1)', [about[0]!.member]);
    expect((await owner.query('select label from audit_entries where id = $1', [id])).rows).toEqual([{ label: null }]);
    // The fold finds no price entry of this administrator to fold into: it changes nothing and says so.
    const fold = await app.query<{ id: string | null }>(
      `select audit_fold_price_save('discount-package', '1', 'admin-roles', 'product:1', '{}', '{}') as id`,
    );
    expect(fold.rows).toEqual([{ id: null }]);
  });

  it('may truncate no table at all', async () => {
    const { rows } = await owner.query<{ table: string }>(
      `select c.relname as table from pg_class c
       where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and has_table_privilege($1, c.oid, 'TRUNCATE')`,
      [APP_ROLE],
    );
    expect(rows).toEqual([]);
    await expect(app.query('truncate orders')).rejects.toThrow(/permission denied for table orders/);
  });

  it('reads and writes a table a later migration adds, and granting again changes nothing else', async () => {
    await owner.query('create table later_table (id int primary key, note text)');
    // The owner's default privileges cover it at once; the grant after the migrations makes sure.
    await app.query(`insert into later_table values (1, 'one')`);
    await grantAppRole(owner, APP_ROLE);
    await grantAppRole(owner, APP_ROLE);
    await app.query(`update later_table set note = 'uno' where id = 1`);
    expect((await app.query('select note from later_table')).rows).toEqual([{ note: 'uno' }]);
    await app.query('delete from later_table');
    await expect(app.query('truncate later_table')).rejects.toThrow(/permission denied/);
    await expect(app.query('delete from audit_entries')).rejects.toThrow(PERMISSION_DENIED);
    await owner.query('drop table later_table');
  });
});
