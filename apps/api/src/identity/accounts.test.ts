import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/helper.js';
import { createAccountService } from './accounts.service.js';
import { createDemoAccounts, DEMO_ADMIN_EMAIL, DEMO_MEMBER_EMAIL } from './demo-accounts.js';
import { DEMO_MEMBER_SUBJECT } from '../seed/demo-data.js';

const { db, pool } = await testDatabase();
const accounts = createAccountService({ db });

describe('account store', () => {
  it('stores a salted argon2id hash (19 MiB, 2 passes, 1 lane), never the password, and checks credentials', async () => {
    await accounts.add({ email: 'Pat@Example.com', password: 'Sunny-Day-42' });
    await accounts.add({ email: 'sam@example.com', password: 'Sunny-Day-42' });
    const { rows } = await pool.query('select email, password_hash from accounts order by email');
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(rows[0].password_hash).not.toContain('Sunny');
    expect(rows[0].password_hash).not.toBe(rows[1].password_hash);
    expect((await accounts.verifyCredentials('pat@example.COM', 'Sunny-Day-42'))?.email).toBe('Pat@Example.com');
    expect(await accounts.verifyCredentials('pat@example.com', 'Sunny-Day-43')).toBeNull();
    expect(await accounts.verifyCredentials('nobody@example.com', 'Sunny-Day-42')).toBeNull();
  });

  it('upgrades an older scrypt hash to argon2id at the next successful sign-in, and only then', async () => {
    await accounts.add({ email: 'old@example.com', password: 'Sunny-Day-42' });
    // A hash written by an earlier version: scrypt N=2^14, r=8, p=1 of "Sunny-Day-42".
    const salt = randomBytes(16);
    const key = scryptSync('Sunny-Day-42', salt, 64, { N: 16_384, r: 8, p: 1 });
    const old = ['scrypt', 16_384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    await pool.query(`update accounts set password_hash = $1 where email = 'old@example.com'`, [old]);
    const stored = async () =>
      (await pool.query(`select password_hash from accounts where email = 'old@example.com'`)).rows[0].password_hash;
    expect(await accounts.verifyCredentials('old@example.com', 'Wrong-Day-42')).toBeNull();
    expect(await stored()).toBe(old);
    expect(await accounts.verifyCredentials('old@example.com', 'Sunny-Day-42')).not.toBeNull();
    expect(await stored()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await accounts.verifyCredentials('old@example.com', 'Sunny-Day-42')).not.toBeNull();
  });

  it('keeps emails unique whatever their case, and refuses passwords that break the policy', async () => {
    await expect(accounts.add({ email: 'PAT@example.com', password: 'Sunny-Day-42' })).rejects.toThrow(
      'already exists',
    );
    await expect(accounts.add({ email: 'new@example.com', password: 'short' })).rejects.toThrow(
      'Password must be at least 8 characters long',
    );
    await expect(accounts.add({ email: 'not an email', password: 'Sunny-Day-42' })).rejects.toThrow('valid email');
  });

  it('creates the demo admin and member once, the member with the demo data subject', async () => {
    const created = await createDemoAccounts(createAccountService({ db }), {
      admin: 'Admin-Pass-1',
      member: undefined,
    });
    expect(created).toBeNull(); // the store is not empty any more
    await pool.query('delete from accounts');
    const fresh = await createDemoAccounts(accounts, { admin: 'Admin-Pass-1', member: undefined });
    expect(fresh?.map((a) => a.email)).toEqual([DEMO_ADMIN_EMAIL, DEMO_MEMBER_EMAIL]);
    expect(await accounts.verifyCredentials(DEMO_ADMIN_EMAIL, 'Admin-Pass-1')).toMatchObject({ groups: ['Admin'] });
    const member = await accounts.verifyCredentials(DEMO_MEMBER_EMAIL, fresh![1]!.password);
    expect(member).toMatchObject({ accountId: DEMO_MEMBER_SUBJECT, groups: [] });
  });
});
