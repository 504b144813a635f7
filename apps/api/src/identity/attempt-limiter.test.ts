import { describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/helper.js';
import { createAttemptLimiter } from './attempt-limiter.js';
import { sweepExpiredPayloads } from './oidc-adapter.js';

const database = await testDatabase();

describe('attempt limits kept in PostgreSQL', () => {
  it('are shared by every process on the same database', async () => {
    // Two limiters stand for two API processes behind a load balancer.
    const first = createAttemptLimiter({ db: database.db, max: 3, windowMs: 60_000 });
    const second = createAttemptLimiter({ db: database.db, max: 3, windowMs: 60_000 });
    await first.record('email:a@example.com', 'ip:203.0.113.7');
    await second.record('email:b@example.com', 'ip:203.0.113.7');
    expect(await first.blocked('ip:203.0.113.7')).toBe(false);
    await first.record('email:c@example.com', 'ip:203.0.113.7');
    expect(await second.blocked('email:z@example.com', 'ip:203.0.113.7')).toBe(true);
    expect(await second.blocked('email:a@example.com')).toBe(false);
    await second.clear('ip:203.0.113.7');
    expect(await first.blocked('ip:203.0.113.7')).toBe(false);
  });

  it('refuse the attempt after the maximum, forget attempts older than the window and sweep them', async () => {
    const limiter = createAttemptLimiter({ db: database.db, max: 2, windowMs: 300 });
    expect(await limiter.consume('password:m1')).toBe(false);
    expect(await limiter.consume('password:m1')).toBe(false);
    expect(await limiter.consume('password:m1')).toBe(true);
    await new Promise((r) => setTimeout(r, 350));
    expect(await limiter.consume('password:m1')).toBe(false);
    const { rows } = await database.pool.query(
      `select count(*)::int as n from attempt_events where key = 'password:m1'`,
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('the provider store', () => {
  it('sweeps expired entries and keeps live ones', async () => {
    await database.pool.query(
      `insert into oidc_payloads (model, id, payload, expires_at) values
       ('Session', 'old', '{}', now() - interval '1 minute'), ('Session', 'live', '{}', now() + interval '1 hour')`,
    );
    expect(await sweepExpiredPayloads(database.db)).toBe(1);
    const { rows } = await database.pool.query(`select id from oidc_payloads where model = 'Session'`);
    expect(rows.map((r) => r.id)).toEqual(['live']);
  });
});
