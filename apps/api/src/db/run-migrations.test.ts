import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/helper.js';
import { migrationsWith } from '../../test/migrations-with.js';
import { describeStartFailure } from '../start-failure.js';
import { asMigrationRefused, MigrationRefused, runMigrations } from './client.js';

/** An error as node-postgres makes one from the server's. */
const serverError = (code: string, message: string, detail?: string) =>
  Object.assign(new Error(message), { code, severity: 'ERROR', ...(detail ? { detail } : {}) });

describe('an upgrade PostgreSQL refuses', () => {
  it('changes nothing and says in one sentence what the server refused and what to do', async () => {
    const { db, pool } = await testDatabase();
    const folder = await migrationsWith([
      'CREATE TABLE "refused_probe" ("x" integer);',
      'CREATE TABLE "products" ("x" integer);',
    ]);
    const applied = async () =>
      Number((await pool.query('select count(*) from drizzle.__drizzle_migrations')).rows[0].count);
    const before = await applied();

    const failure = await runMigrations(db, pool, folder).then(
      () => null,
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(MigrationRefused);
    expect(await applied()).toBe(before);
    // Neither the pending migration before it nor the refused one's first statement was kept.
    const probes = await pool.query(`select to_regclass('accepted_probe') as a, to_regclass('refused_probe') as r`);
    expect(probes.rows).toEqual([{ a: null, r: null }]);
    expect(describeStartFailure(failure, {})).toBe(
      'The database schema could not be upgraded, and nothing in it was changed, because PostgreSQL refused a step (relation "products" already exists): fix what it names, or restore a backup of this database, then start again.',
    );
  });

  it('says a timed-out or busy upgrade was undone and what to do, whatever the database variable, and passes a lost connection on', () => {
    const undone = 'The database schema could not be upgraded, and nothing in it was changed';
    const sentence = (error: Error) =>
      describeStartFailure(asMigrationRefused(error) ?? error, { DATABASE_URL: 'postgres://ums@db.example/ums' });
    expect(sentence(serverError('57014', 'canceling statement due to statement timeout'))).toBe(
      `${undone}, because a step took longer than the server's statement_timeout (canceling statement due to statement timeout): lift it for the database owner (ALTER ROLE ... SET statement_timeout = 0), then start again.`,
    );
    expect(sentence(serverError('55P03', 'canceling statement due to lock timeout'))).toBe(
      `${undone}, because PostgreSQL was busy (canceling statement due to lock timeout): start again.`,
    );
    expect(
      sentence(serverError('23505', 'could not create unique index "x"', 'Key (email)=(a@b.example) is duplicated.')),
    ).toBe(
      `${undone}, because PostgreSQL refused a step (could not create unique index "x": Key (email)=(a@b.example) is duplicated.): fix what it names, or restore a backup of this database, then start again.`,
    );
    // "unterminated" is not a lost connection.
    expect(sentence(serverError('42601', 'unterminated quoted string at or near "\'"'))).toMatch(
      /^The database schema could not be upgraded/,
    );
    expect(asMigrationRefused(serverError('57P01', 'terminating connection due to administrator command'))).toBeNull();
    expect(asMigrationRefused(serverError('08006', 'connection failure'))).toBeNull();
    expect(asMigrationRefused(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBeNull();
  });
});
