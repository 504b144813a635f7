import { randomBytes, randomInt } from 'node:crypto';
import {
  adminMemberDetailsSchema,
  SEARCH_COUNT_LIMIT,
  type AdminMember,
  type AdminMemberDetails,
  type AuditEntry,
} from '@ums/contracts';
import { AUDIT_READ_ACTIONS, MEMBER_DIRECTORY_ENTITY_ID } from '@ums/contracts/audit';
import { describe, expect, it } from 'vitest';
import { dpopHeaders, signIn } from '@ums/testkit/oidc-browser';
import { providerApp } from '../../../test/oidc-client.js';
import { waitFor } from '../../../test/wait-for.js';
import { createAccountService } from '../../identity/accounts.service.js';
import { MEMBER_MESSAGES } from './members.js';

const PASSWORD = 'Directory-Pass-42!';
const server = await providerApp();
const { base, database } = server;
const pool = database.pool;
const accounts = createAccountService({ db: database.db });
const run = randomBytes(3).toString('hex');

async function account(name: string, admin = false) {
  const email = `${name}-${run}-${randomBytes(3).toString('hex')}@directory.example`;
  const created = await accounts.add({ email, password: PASSWORD, admin, firstName: name, lastName: 'Tester' });
  const tokens = await signIn(base, email, PASSWORD);
  return { email, id: created.accountId, token: tokens.access_token };
}

const admin = await account('Avery', true);
const call = (method: string, path: string, token = admin.token, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: {
      ...dpopHeaders(token, method, `${base}${path}`),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
const json = async <T>(response: Response) =>
  (await response.json()) as {
    data: T[];
    page?: { nextCursor: string | null; total: number; totalAtLeast?: boolean };
    message: string;
  };

/** The status of a call once it gives `status`, or after 5 s the last one it gave. */
const statusOnce = (probe: () => Promise<Response>, status: number) =>
  waitFor(
    async () => (await probe()).status,
    (got) => got === status,
  );

describe('the member directory', () => {
  it('walks every account exactly once by pages, while accounts are added between pages', async () => {
    for (let i = 0; i < 5; i++) await accounts.add({ email: `walk${i}-${run}@directory.example`, password: PASSWORD });
    const seen: string[] = [];
    let cursor: string | null = null;
    let added = 0;
    do {
      const query: string = `?limit=3&q=${encodeURIComponent(`-${run}@`)}&sort=email${cursor ? `&cursor=${cursor}` : ''}`;
      const page: Awaited<ReturnType<typeof json<AdminMember>>> = await json<AdminMember>(
        await call('GET', `/api/admin/members${query}`),
      );
      seen.push(...page.data.map((m) => m.email));
      cursor = page.page!.nextCursor;
      // An account added behind the walk is not seen; one added ahead of it is seen once.
      if (added++ < 2) await accounts.add({ email: `zz-late${added}-${run}@directory.example`, password: PASSWORD });
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort());
    for (let i = 0; i < 5; i++) expect(seen).toContain(`walk${i}-${run}@directory.example`);
    expect(seen).toContain(`zz-late1-${run}@directory.example`);
  });

  it('finds members by a part of their email or name, case-insensitively, newest first when asked', async () => {
    const quinn = await account('Quinnelope');
    const byName = await json<AdminMember>(await call('GET', '/api/admin/members?limit=10&q=QUINNELOPE'));
    expect(byName.data.map((m) => m.email)).toEqual([quinn.email]);
    expect(byName.page!.total).toBe(1);
    expect(byName.data[0]).toMatchObject({ id: quinn.id, firstName: 'Quinnelope', lastName: 'Tester', groups: [] });
    const newest = await json<AdminMember>(await call('GET', '/api/admin/members?limit=1&sort=-createdAt'));
    expect(newest.data[0]!.email).toBe(quinn.email);
    const bad = await call('GET', '/api/admin/members?sort=password');
    expect(bad.status).toBe(400);
  });

  it('finds only the members holding the whole search when its number is in others too, and counts only them', async () => {
    const number = String(1_000_000 + Math.floor(Math.random() * 9_000_000));
    const joined = `agent${number}-${run}@directory.example`;
    const spaced = `other-${number}-${run}@directory.example`;
    await accounts.add({ email: joined, password: PASSWORD, firstName: 'Quill', lastName: 'Tester' });
    await accounts.add({ email: spaced, password: PASSWORD, firstName: 'Zed', lastName: `Agent ${number}` });
    const found = async (q: string) => {
      const page = await json<AdminMember>(await call('GET', `/api/admin/members?limit=10&q=${encodeURIComponent(q)}`));
      return { emails: page.data.map((m) => m.email), total: page.page!.total };
    };
    expect(await found(`AGENT ${number}`)).toEqual({ emails: [spaced], total: 1 });
    expect(await found(`Agent${number}`)).toEqual({ emails: [joined], total: 1 });
    expect((await found(number)).total).toBe(2);
  });

  it('counts a search matching more than 1000 members as "at least 1000", and its pages still walk every match once in order', async () => {
    // 1,040 members whose names hold the word, spread among as many who do not (decision 053).
    // Letters only: a run of digits would send the search to the digit-run index.
    const word = `crowd${run.replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]!)}`;
    await pool.query(
      `insert into accounts (email, password_hash, first_name, last_name)
       select 'c' || lpad(n::text, 5, '0') || '-' || $2 || '@directory.example', 'not-a-hash', 'Member',
              case when n % 2 = 0 then $1 || ' ' || n else 'Other ' || n end
       from generate_series(1, 2080) n`,
      [word, run],
    );
    const expected = Array.from(
      { length: 1040 },
      (_, i) => `c${String(2 * (i + 1)).padStart(5, '0')}-${run}@directory.example`,
    );
    const emails: string[] = [];
    let cursor: string | null = null;
    do {
      const path: string = `/api/admin/members?limit=100&q=${word.toUpperCase()}${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await json<AdminMember>(await call('GET', path));
      expect(page.page).toEqual({ nextCursor: page.page!.nextCursor, total: SEARCH_COUNT_LIMIT, totalAtLeast: true });
      emails.push(...page.data.map((m) => m.email));
      cursor = page.page!.nextCursor;
    } while (cursor);
    expect(emails).toEqual(expected);
    // Newest first (all made at the same moment: ordered by their ids), continued from the cursor.
    const newest = await json<AdminMember>(await call('GET', `/api/admin/members?limit=30&sort=-createdAt&q=${word}`));
    const next = await json<AdminMember>(
      await call('GET', `/api/admin/members?limit=30&sort=-createdAt&q=${word}&cursor=${newest.page!.nextCursor}`),
    );
    // The 60 newest of the word's members, as PostgreSQL orders them, each once.
    const { rows: newestSixty } = await pool.query<{ email: string }>(
      `select email from accounts where last_name like $1 || ' %'
       order by created_at desc, account_id::text desc limit 60`,
      [word],
    );
    expect([...newest.data, ...next.data].map((m) => m.email)).toEqual(newestSixty.map((r) => r.email));
    expect(next.page).toMatchObject({ total: SEARCH_COUNT_LIMIT, totalAtLeast: true });
    // The export of the search holds every match, not a page or a count's worth.
    const csv = await call('GET', `/api/admin/members?format=csv&q=${word}`);
    expect((await csv.text()).trim().split('\r\n')).toHaveLength(1 + 1040);
    // A search matching fewer is counted exactly.
    const few = await json<AdminMember>(
      await call('GET', `/api/admin/members?limit=10&q=${encodeURIComponent(`${word} 123`)}`),
    );
    expect(few.page).toEqual({ nextCursor: null, total: 5, totalAtLeast: false });
    // The word's members numbered 1230 to 1238 (123 is odd: not one of them).
    expect(few.data.map((m) => m.email)).toEqual([614, 615, 616, 617, 618].map((i) => expected[i]));
  });

  it('finds a member by any 5 digits or more of a longer number, wherever they stand, and only where the whole search is', async () => {
    // 13 digits, random, beside letters and a non-ASCII letter; and a 40-digit run, past the index's 32. No 0 in it:
    // another test's accounts are numbered c00001 to c02080, and a slice such as 00664 would find one of them too.
    const number = Array.from({ length: 13 }, () => randomInt(1, 10)).join('');
    const long = `${number}${'7'.repeat(27)}`;
    const lettered = `dig${number}x-${run}@directory.example`;
    const named = `long-${run}@directory.example`;
    await accounts.add({ email: lettered, password: PASSWORD, firstName: 'Ωmega', lastName: `Ref${number}Ω` });
    await accounts.add({ email: named, password: PASSWORD, firstName: 'Lang', lastName: `Nr ${long}` });
    const found = async (q: string) => {
      const page = await json<AdminMember>(await call('GET', `/api/admin/members?limit=10&q=${encodeURIComponent(q)}`));
      return { emails: page.data.map((m) => m.email).sort(), total: page.page!.total };
    };
    const both = { emails: [lettered, named].sort(), total: 2 };
    expect(await found(number.slice(0, 5))).toEqual(both);
    expect(await found(number.slice(4, 11))).toEqual(both);
    expect(await found(number.slice(-5))).toEqual(both);
    expect(await found(`DIG${number.slice(0, 8)}`)).toEqual({ emails: [lettered], total: 1 });
    expect(await found(`Ref${number}Ω`)).toEqual({ emails: [lettered], total: 1 });
    expect(await found(`nr ${number}`)).toEqual({ emails: [named], total: 1 });
    // Digits past the 32nd of a run, and a search of more than 32 digits.
    expect(await found(`${number.slice(-3)}${'7'.repeat(27)}`)).toEqual({ emails: [named], total: 1 });
    expect(await found(long)).toEqual({ emails: [named], total: 1 });
    // The whole search decides: its run is in both, the rest in neither.
    expect(await found(`${number} zz`)).toEqual({ emails: [], total: 0 });
  });

  it('finds a member by the name they typed into Personal Information, and by their account name while they leave it blank', async () => {
    const sage = await account('Sagittaria');
    const found = async (q: string) =>
      (await json<AdminMember>(await call('GET', `/api/admin/members?limit=5&q=${q}`))).data.map((m) => m.email);
    const saved = await call('POST', '/api/userdetails/internal', sage.token, {
      firstName: 'Wilhelmina',
      lastName: '',
    });
    expect(saved.status).toBe(200);
    expect(await found('wilhelmina')).toEqual([sage.email]);
    // The name they left blank is still the one the account was made with, shown and found.
    expect(await found(`Wilhelmina Tester`)).toEqual([sage.email]);
    const entry = (await json<AdminMember>(await call('GET', `/api/admin/members?limit=5&q=${sage.email}`))).data[0];
    expect(entry).toMatchObject({ firstName: 'Wilhelmina', lastName: 'Tester' });
    // Another provider's member (a subject that names no account here) saves their details as before.
    const other = await pool.query(
      `insert into user_details (subject, first_name) values ($1, 'Outside') returning 1`,
      [`cognito-${run}`],
    );
    expect(other.rowCount).toBe(1);
  });

  it('answers from its per-version cache only until a member renames themselves or a deletion is scheduled', async () => {
    const jordan = await account('Jordanna');
    const entry = async () =>
      (await json<AdminMember>(await call('GET', `/api/admin/members?limit=5&q=${jordan.email}`))).data[0]!;
    expect(await entry()).toMatchObject({ firstName: 'Jordanna', deletionPendingUntil: null });
    const saved = await call('POST', '/api/userdetails/internal', jordan.token, {
      firstName: 'Zebulon',
      lastName: 'Quill',
    });
    expect(saved.status).toBe(200);
    expect(await entry()).toMatchObject({ firstName: 'Zebulon', lastName: 'Quill' });
    await pool.query(`insert into account_deletions (subject, delete_after) values ($1, now() + interval '30 days')`, [
      jordan.id,
    ]);
    expect((await entry()).deletionPendingUntil).not.toBeNull();
  });

  it('shows a pending deletion on the entry, with the day the account goes', async () => {
    const leaving = await account('Leaving');
    await pool.query(`insert into account_deletions (subject, delete_after) values ($1, '2026-12-24T10:00:00Z')`, [
      leaving.id,
    ]);
    const found = await json<AdminMember>(await call('GET', `/api/admin/members?limit=5&q=${leaving.email}`));
    expect(found.data[0]!.deletionPendingUntil).toBe('2026-12-24T10:00:00.000Z');
  });

  it('opens one member: details, the newest orders, subscriptions, sessions and activity; an unknown id is 404, a malformed one 400', async () => {
    const morgan = await account('Morgan');
    await pool.query(
      `insert into user_details (subject, first_name, last_name, email, city) values ($1, 'Morgan', 'Lee', $2, 'Portland')`,
      [morgan.id, morgan.email],
    );
    await pool.query(
      `with o as (insert into orders (subject, total_amount, ordered_at, status) values ($1, 49, now(), 'Paid') returning order_id)
       insert into order_items (order_id, position, product_name, price) select order_id, 0, 'Complete Blood Count', 49 from o`,
      [morgan.id],
    );
    const details = (await json<AdminMemberDetails>(await call('GET', `/api/admin/members/${morgan.id}`))).data[0]!;
    expect(details.member).toMatchObject({ id: morgan.id, email: morgan.email, firstName: 'Morgan', lastName: 'Lee' });
    expect(details.personalInformation).toMatchObject({ city: 'Portland' });
    expect(details.orders).toMatchObject([{ status: 'Paid', productNames: ['Complete Blood Count'], totalAmount: 49 }]);
    expect(details.ordersPage).toEqual({ nextCursor: null, total: 1 });
    expect(details.sessions).toHaveLength(1);
    expect(details.securityActivity.map((e) => e.event)).toEqual(['sign-in']);
    expect((await call('GET', '/api/admin/members/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call('GET', '/api/admin/members/not-an-id')).status).toBe(400);
    // A member is never let in.
    expect((await call('GET', `/api/admin/members/${morgan.id}`, morgan.token)).status).toBe(403);
  });

  it("answers a member's page as its contract reads it, every field and nothing more: details, orders, an active and a cancelled subscription, sessions, activity and a pending deletion", async () => {
    const drew = await account('Drew');
    await pool.query(
      `insert into user_details (subject, first_name, last_name, email, biological_sex, birthdate, phone_number,
                                 street_address, city, country_region, state_province, postal_code)
       values ($1, 'Drew', 'Park', $2, 'Female', '1990-04-12', '+1 503 555 0100', '1 Main St', 'Portland',
               'United States', 'OR', '97201')`,
      [drew.id, drew.email],
    );
    await pool.query(
      `with o as (insert into orders (subject, total_amount, ordered_at, status) values ($1, 49.5, now(), 'Paid') returning order_id)
       insert into order_items (order_id, position, product_name, price) select order_id, 0, 'Lipid Panel', 49.5 from o`,
      [drew.id],
    );
    await pool.query(
      `with s as (insert into subscriptions (subject, price_per_interval, billing_interval, billing_period, cancelled_at)
                  values ($1, 19.99, 1, 'month', null), ($1, 5, 2, 'week', now()) returning subscription_id)
       insert into subscription_products (subscription_id, product_id, position)
       select s.subscription_id, p.product_id, 0 from s cross join (select product_id from products order by product_id limit 1) p`,
      [drew.id],
    );
    await pool.query(`insert into account_deletions (subject, delete_after) values ($1, now() + interval '30 days')`, [
      drew.id,
    ]);
    const answer = await call('GET', `/api/admin/members/${drew.id}`);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { data: unknown[] };
    const page = body.data[0];
    // Parsing drops any field the contract does not name: the answer equals its parse only when there is none.
    expect(adminMemberDetailsSchema.parse(page)).toEqual(page);
    const details = adminMemberDetailsSchema.parse(page);
    expect(details.member.deletionPendingUntil).not.toBeNull();
    expect(details.personalInformation).toMatchObject({ biologicalSex: 'Female', birthdate: '1990-04-12' });
    expect(details.orders).toMatchObject([{ totalAmount: 49.5, productNames: ['Lipid Panel'] }]);
    expect(details.subscriptions.map((s) => [s.pricePerInterval, s.cancelledAt === null])).toEqual([
      [19.99, true],
      [5, false],
    ]);
    expect(details.sessions).toHaveLength(1);
    expect(details.securityActivity.map((e) => e.event)).toEqual(['sign-in']);
  });

  it("pages a member's orders newest first, each once, searches them, exports them; an unknown member is 404", async () => {
    const casey = await account('Casey');
    await pool.query(
      `with o as (insert into orders (subject, total_amount, ordered_at, status)
                  select $1, n, now() - make_interval(days => n), 'Paid' from generate_series(1, 30) n returning order_id, total_amount)
       insert into order_items (order_id, position, product_name, price)
       select order_id, 0, case when total_amount = 7 then 'Vitamin D Panel' else 'Lipid Panel' end, total_amount from o`,
      [casey.id],
    );
    const amounts: number[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof json<{ totalAmount: number }>>> = await json<{ totalAmount: number }>(
        await call('GET', `/api/admin/members/${casey.id}/orders?limit=8${cursor ? `&cursor=${cursor}` : ''}`),
      );
      expect(page.page!.total).toBe(30);
      amounts.push(...page.data.map((o) => o.totalAmount));
      cursor = page.page!.nextCursor;
    } while (cursor);
    expect(amounts).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    // The member's page carries the newest 25; its cursor continues on the orders call.
    const details = (await json<AdminMemberDetails>(await call('GET', `/api/admin/members/${casey.id}`))).data[0]!;
    expect(details.orders.map((o) => o.totalAmount)).toEqual(amounts.slice(0, 25));
    expect(details.ordersPage.total).toBe(30);
    const rest = await json<{ totalAmount: number }>(
      await call('GET', `/api/admin/members/${casey.id}/orders?limit=25&cursor=${details.ordersPage.nextCursor}`),
    );
    expect(rest.data.map((o) => o.totalAmount)).toEqual(amounts.slice(25));
    const found = await json<{ productNames: string[] }>(
      await call('GET', `/api/admin/members/${casey.id}/orders?limit=5&q=vitamin`),
    );
    expect(found.data.map((o) => o.productNames)).toEqual([['Vitamin D Panel']]);
    const csv = await call('GET', `/api/admin/members/${casey.id}/orders?format=csv`);
    expect((await csv.text()).trim().split('\r\n')).toHaveLength(31);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('GET', `/api/admin/members/${unknown}/orders?limit=5`)).status).toBe(404);
    expect((await call('GET', `/api/admin/members/${casey.id}/orders?limit=5`, casey.token)).status).toBe(403);
  });

  it("pages a member's security activity newest first, each event once: the member's page carries the newest 25", async () => {
    const jordan = await account('Jordan');
    // An account under attack: 60 failed sign-ins, a minute apart, after the member's own sign-in.
    await pool.query(
      `insert into security_events (subject, at, event, browser, os, ip_address)
       select $1, now() - make_interval(mins => n), 'sign-in-failed', 'Chrome 142', 'Linux', '203.0.113.' || n
       from generate_series(1, 60) n`,
      [jordan.id],
    );
    const events: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof json<{ at: string; ipAddress: string | null }>>> = await json<{
        at: string;
        ipAddress: string | null;
      }>(await call('GET', `/api/admin/members/${jordan.id}/activity?limit=20${cursor ? `&cursor=${cursor}` : ''}`));
      expect(page.page!.total).toBe(61);
      events.push(...page.data.map((e) => `${e.at} ${e.ipAddress}`));
      cursor = page.page!.nextCursor;
    } while (cursor);
    expect(new Set(events).size).toBe(61);
    expect([...events].sort().reverse()).toEqual(events);
    const details = (await json<AdminMemberDetails>(await call('GET', `/api/admin/members/${jordan.id}`))).data[0]!;
    expect(details.securityActivity.map((e) => `${e.at} ${e.ipAddress}`)).toEqual(events.slice(0, 25));
    expect(details.securityActivityPage.total).toBe(61);
    const rest = await json<{ at: string; ipAddress: string | null }>(
      await call(
        'GET',
        `/api/admin/members/${jordan.id}/activity?limit=50&cursor=${details.securityActivityPage.nextCursor}`,
      ),
    );
    expect(rest.data.map((e) => `${e.at} ${e.ipAddress}`)).toEqual(events.slice(25));
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('GET', `/api/admin/members/${unknown}/activity?limit=5`)).status).toBe(404);
    expect((await call('GET', `/api/admin/members/${jordan.id}/activity?limit=5`, jordan.token)).status).toBe(403);
    const { rows } = await pool.query(
      `select after from audit_entries where entity_id = $1 and action = 'member-details-read' order by id`,
      [jordan.id],
    );
    expect(rows.filter((row) => JSON.stringify(row.after) === JSON.stringify({ read: ['activity'] }))).toHaveLength(1);
  });

  it("records each administrator's read of a member's details or orders, and each export of the directory", async () => {
    const casey = await account('Casey');
    const reads = async (entityId: string) =>
      (
        await pool.query(
          `select actor_id, actor_email, action, entity, before, after from audit_entries
           where entity_id = $1 and action = any($2) order by id`,
          [entityId, [...AUDIT_READ_ACTIONS]],
        )
      ).rows;
    expect((await call('GET', `/api/admin/members/${casey.id}`)).status).toBe(200);
    expect((await call('GET', `/api/admin/members/${casey.id}/orders?limit=5&q=panel`)).status).toBe(200);
    const csv = await call('GET', `/api/admin/members/${casey.id}/orders?format=csv`);
    expect(csv.status).toBe(200);
    await csv.text();
    const by = { actor_id: admin.id, actor_email: admin.email, entity: 'member', before: null };
    expect(await reads(casey.id)).toEqual([
      { ...by, action: 'member-details-read', after: { read: expect.arrayContaining(['details', 'orders']) } },
      { ...by, action: 'member-orders-read', after: { q: 'panel' } },
      { ...by, action: 'member-orders-read', after: { format: 'csv' } },
    ]);

    const before = (await reads(MEMBER_DIRECTORY_ENTITY_ID)).length;
    const directory = await call('GET', `/api/admin/members?format=csv&q=${encodeURIComponent('Casey')}`);
    expect(directory.status).toBe(200);
    await directory.text();
    expect((await reads(MEMBER_DIRECTORY_ENTITY_ID)).slice(before)).toEqual([
      { ...by, action: 'members-exported', after: { format: 'csv', q: 'Casey' } },
    ]);
    // A read changes nothing: it cannot be reverted.
    const [entry] = (
      await json<AuditEntry>(await call('GET', `/api/admin/audit?entity=member&entityId=${casey.id}&limit=1`))
    ).data;
    expect(entry).toMatchObject({ action: 'member-orders-read', revertible: false });
  });

  it("ends a member's sessions: their token is refused at once, and the audit trail names who did it", async () => {
    const riley = await account('Riley');
    const ended = await call('POST', `/api/admin/members/${riley.id}/end-sessions`);
    expect(ended.status).toBe(200);
    expect((await json(ended)).message).toBe(MEMBER_MESSAGES.sessionsEnded);
    expect(await statusOnce(() => call('GET', '/api/userdetails/', riley.token), 401)).toBe(401);
    const { rows } = await pool.query(
      `select actor_id, actor_email, action, entity, before, after from audit_entries where entity_id = $1`,
      [riley.id],
    );
    expect(rows).toEqual([
      {
        actor_id: admin.id,
        actor_email: admin.email,
        action: 'member-sessions-ended',
        entity: 'member',
        before: { sessions: 1 },
        after: { sessions: 0 },
      },
    ]);
  });

  it("changes a member's groups (their old token stops, audited with before and after) but never the caller's own Admin", async () => {
    const sam = await account('Sam');
    const saved = await call('PUT', `/api/admin/members/${sam.id}/groups`, admin.token, { groups: ['Admin'] });
    expect(saved.status).toBe(200);
    expect((await json<AdminMember>(saved)).data[0]!.groups).toEqual(['Admin']);
    expect(await statusOnce(() => call('GET', '/api/userdetails/', sam.token), 401)).toBe(401);
    const { rows } = await pool.query(`select before, after from audit_entries where entity_id = $1`, [sam.id]);
    expect(rows).toEqual([{ before: { groups: [] }, after: { groups: ['Admin'] } }]);

    const own = await call('PUT', `/api/admin/members/${admin.id}/groups`, admin.token, { groups: [] });
    expect(own.status).toBe(409);
    expect((await json(own)).message).toBe(MEMBER_MESSAGES.ownAdmin);
    const { rows: mine } = await pool.query(`select groups from accounts where account_id = $1`, [admin.id]);
    expect(mine[0].groups).toEqual(['Admin']);
    expect((await pool.query(`select 1 from audit_entries where entity_id = $1`, [admin.id])).rows).toEqual([]);

    const bad = await call('PUT', `/api/admin/members/${sam.id}/groups`, admin.token, { groups: ['Admin', 'Admin'] });
    expect(bad.status).toBe(400);
  });

  it('gives and takes console roles: Support reads members (each read audited under their name) and not the catalog, and the member is mailed each time their roles change', async () => {
    const kim = await account('Kim');
    const mails = async () =>
      (
        await pool.query<{ subject: string }>(
          `select subject from mail_outbox where recipient = $1 and subject like '%admin console%' order by id`,
          [kim.email],
        )
      ).rows.map((row) => row.subject);
    const given = await call('PUT', `/api/admin/members/${kim.id}/groups`, admin.token, { groups: ['Support'] });
    expect(given.status).toBe(200);
    const support = (await signIn(base, kim.email, PASSWORD)).access_token;
    expect((await call('GET', `/api/admin/members/${admin.id}`, support)).status).toBe(200);
    // Support's reads are accounted for like an administrator's: who looked at whom, and when.
    const reads = await pool.query(
      `select entity_id from audit_entries where actor_id = $1 and action = 'member-details-read'`,
      [kim.id],
    );
    expect(reads.rows).toEqual([{ entity_id: admin.id }]);
    const byActor = await json<{ actor: { email: string } }>(
      await call('GET', `/api/admin/audit?actor=${kim.id}`, admin.token),
    );
    expect(byActor.data.map((entry) => entry.actor.email)).toEqual([kim.email]);
    const catalog = await call('GET', '/api/membership', support);
    expect([catalog.status, (await json(catalog)).message]).toEqual([403, 'Your role does not include the catalog.']);
    const groups = await call('PUT', `/api/admin/members/${admin.id}/groups`, support, { groups: [] });
    expect([groups.status, (await json(groups)).message]).toEqual([
      403,
      "Your role does not include changing members' groups.",
    ]);
    // Support helps members, not the people who run the console: an Admin's sessions and second factors are not theirs.
    for (const action of ['end-sessions', 'reset-sign-in-methods']) {
      const refused = await call('POST', `/api/admin/members/${admin.id}/${action}`, support, {});
      expect([refused.status, (await json(refused)).message], action).toEqual([
        403,
        'Only an administrator can do this to someone with a console role.',
      ]);
    }
    expect((await call('GET', '/api/userdetails/', admin.token)).status).toBe(200);
    const helped = await account('Helped');
    expect((await call('POST', `/api/admin/members/${helped.id}/end-sessions`, support, {})).status).toBe(200);
    // A group that is no console role changes no role: no mail for it.
    await call('PUT', `/api/admin/members/${kim.id}/groups`, admin.token, { groups: ['Support', 'Billing'] });
    await call('PUT', `/api/admin/members/${kim.id}/groups`, admin.token, { groups: ['Catalog'] });
    expect(await mails()).toEqual([
      'Your access to the admin console changed',
      'Your access to the admin console changed',
    ]);
    const { rows } = await pool.query(`select groups from accounts where account_id = $1`, [kim.id]);
    expect(rows[0].groups).toEqual(['Catalog']);
  });

  it("two administrators taking each other's Admin group at once leave one of them an administrator", async () => {
    for (let round = 0; round < 3; round++) {
      const [ada, bo] = await Promise.all([account('Ada', true), account('Bo', true)]);
      const answers = await Promise.all([
        call('PUT', `/api/admin/members/${bo.id}/groups`, ada.token, { groups: [] }),
        call('PUT', `/api/admin/members/${ada.id}/groups`, bo.token, { groups: [] }),
      ]);
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      const loser = answers.find((answer) => answer.status !== 200)!;
      // Refused in the transaction (403), or by the revocation of the loser's token if it landed first (401).
      if (loser.status === 403) expect((await json(loser)).message).toBe(MEMBER_MESSAGES.noLongerAdmin);
      else expect(loser.status).toBe(401);
      const { rows } = await pool.query(
        `select account_id from accounts where account_id = any($1::uuid[]) and 'Admin' = any(groups)`,
        [[ada.id, bo.id]],
      );
      expect(rows).toHaveLength(1);
    }
  });
});
