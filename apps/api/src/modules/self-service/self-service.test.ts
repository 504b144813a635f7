import { randomBytes } from 'node:crypto';
import {
  ACCOUNT_DELETION_TEXTS as D,
  DELETION_GRACE_DAYS,
  MY_DATA_TEXTS,
  RECEIPT_TEXTS as R,
  RECEIPTS_PER_MINUTE,
  type AccountDeletion,
} from '@ums/contracts';
import { ROLE_TEXTS } from '@ums/contracts/roles';
import { describe, expect, it } from 'vitest';
import { attemptSignIn, browser, dpopHeaders, refresh, signIn } from '@ums/testkit/oidc-browser';
import { providerApp } from '../../../test/oidc-client.js';
import { pdfPages } from '../../../test/pdf-text.js';
import { smtpInbox } from '../../../test/smtp-inbox.js';
import { waitFor } from '../../../test/wait-for.js';
import { operatorGroups, testSecrets } from '../../../test/helper.js';
import { createAccountService } from '../../identity/accounts.service.js';
import { createAccountDeletion } from './account-deletion.js';

const PASSWORD = 'Self-Service-Pass-42!';
const COMPANY = 'UMS Health';
const DAY_MS = 24 * 3600 * 1000;

const inbox = await smtpInbox();
const server = await providerApp({ SMTP_URL: inbox.url }, { deliverMail: true });
const { base, database, config } = server;
const pool = database.pool;
const accounts = createAccountService({ db: database.db });
// The purge runs as the server's database role, which may only scrub labels in the audit trail.
const deletion = createAccountDeletion({ db: database.appRole.db, config, secrets: testSecrets(database.appRole.db) });

interface Member {
  email: string;
  subject: string;
  token: string;
  refreshToken: string;
}

/** A member of the embedded provider with personal information, signed in through the real provider. */
async function member(firstName = 'Robin', lastName = 'Okafor'): Promise<Member> {
  const email = `self-${randomBytes(4).toString('hex')}@example.com`;
  const account = await accounts.add({ email, password: PASSWORD, firstName });
  await pool.query(
    `insert into user_details (subject, first_name, last_name, email, phone_number, street_address, city,
                               state_province, postal_code, country_region, birthdate)
     values ($1, $2, $3, $4, '(555) 010-4477', '12 Elm Street', 'Portland', 'OR', '97205', 'United States',
             '1990-02-03')`,
    [account.accountId, firstName, lastName, email],
  );
  const tokens = await signIn(base, email, PASSWORD);
  return { email, subject: account.accountId, token: tokens.access_token, refreshToken: tokens.refresh_token };
}

/** Records an order as the store would: its items with their prices, and what was charged. */
async function order(
  subject: string,
  at: string,
  total: string,
  items: [string, string | null][],
  status = 'Paid',
): Promise<number> {
  const { rows } = await pool.query<{ order_id: number }>(
    `insert into orders (subject, total_amount, ordered_at, status) values ($1, $2, $3, $4) returning order_id`,
    [subject, total, at, status],
  );
  const orderId = rows[0]!.order_id;
  for (const [position, [name, price]] of items.entries()) {
    await pool.query('insert into order_items (order_id, position, product_name, price) values ($1, $2, $3, $4)', [
      orderId,
      position,
      name,
      price,
    ]);
  }
  return orderId;
}

const get = (path: string, token: string) =>
  fetch(`${base}${path}`, { headers: dpopHeaders(token, 'GET', `${base}${path}`) });
const closeAccount = (token: string, password: string) =>
  fetch(`${base}/api/me/deletion`, {
    method: 'POST',
    headers: { ...dpopHeaders(token, 'POST', `${base}/api/me/deletion`), 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });

async function pdfOf(response: Response) {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
  return pdfPages(bytes);
}

describe('receipts', () => {
  it("answer one of the member's orders as a PDF with the company, the member, each product's price, discounts, total and status", async () => {
    const robin = await member();
    const id = await order(robin.subject, '2026-03-07T15:00:00Z', '118.00', [
      ['Lipid Panel', '59.00'],
      ['Thyroid Panel (TSH, Free T4)', '79.00'],
    ]);
    const response = await get(`/api/PaymentHistory/${id}/receipt`, robin.token);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="receipt-${id}.pdf"`);
    const [page, ...more] = await pdfOf(response);
    expect(more).toHaveLength(0);
    for (const text of [
      COMPANY,
      R.hsaLine,
      `${R.title} #${id}`,
      `${R.orderNumber} #${id}`,
      `${R.date} Mar 7, 2026`,
      `${R.status} Paid`,
      `${R.billedTo} Robin Okafor 12 Elm Street Portland, OR 97205 United States ${robin.email}`,
      'Lipid Panel $59.00',
      'Thyroid Panel (TSH, Free T4) $79.00',
      `${R.subtotal} $138.00`,
      `${R.discounts} −$20.00`,
      `${R.total} $118.00`,
    ]) {
      expect(page).toContain(text);
    }
  });

  it('print names in other scripts as they are (the font is embedded)', async () => {
    const zoe = await member('Zoë', 'Дмитриева-Παπαδοπούλου');
    const id = await order(zoe.subject, '2026-01-02T10:00:00Z', '49.00', [['Complete Blood Count', '49.00']]);
    const [page] = await pdfOf(await get(`/api/PaymentHistory/${id}/receipt`, zoe.token));
    expect(page).toContain('Zoë Дмитриева-Παπαδοπούλου');
    expect(page).not.toContain(R.discounts);
  });

  it('of an order recorded without item prices list its products and say that the total is what was charged', async () => {
    const robin = await member();
    const id = await order(robin.subject, '2025-06-01T12:00:00Z', '35.00', [['Hemoglobin A1c', null]], 'Refunded');
    const [page] = await pdfOf(await get(`/api/PaymentHistory/${id}/receipt`, robin.token));
    expect(page).toContain('Hemoglobin A1c');
    expect(page).toContain(`${R.total} $35.00`);
    expect(page).toContain(`${R.status} Refunded`);
    expect(page).not.toContain(R.subtotal);
    expect(page).toContain(R.priceNotRecorded);
  });

  it("answer 404 for another member's order, exactly as for one that does not exist, and 400 for a malformed id", async () => {
    const owner = await member();
    const other = await member();
    const id = await order(owner.subject, '2026-02-01T12:00:00Z', '10.00', [['A', '10.00']]);
    const foreign = await get(`/api/PaymentHistory/${id}/receipt`, other.token);
    const missing = await get('/api/PaymentHistory/2147483000/receipt', other.token);
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    const [a, b] = [(await foreign.json()) as object, (await missing.json()) as object];
    expect({ ...a, message: '', requestId: '' }).toEqual({ ...b, message: '', requestId: '' });
    expect(a).toMatchObject({ isError: true, message: `Order ${id} was not found` });
    expect((await get('/api/PaymentHistory/abc/receipt', other.token)).status).toBe(400);
    expect((await fetch(`${base}/api/PaymentHistory/${id}/receipt`)).status).toBe(401);
  });

  it('of a year come as one PDF, a page per order of that year (UTC), oldest first; a year without orders is 404', async () => {
    const robin = await member();
    const other = await member();
    const late = await order(robin.subject, '2025-12-31T23:30:00Z', '20.00', [['Late', '20.00']]);
    const early = await order(robin.subject, '2025-01-01T00:00:00Z', '10.00', [['Early', '10.00']]);
    await order(robin.subject, '2026-01-01T00:00:00Z', '30.00', [['Next year', '30.00']]);
    await order(other.subject, '2025-05-05T00:00:00Z', '40.00', [['Not yours', '40.00']]);
    const response = await get('/api/PaymentHistory/receipts?year=2025', robin.token);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="receipts-2025.pdf"');
    const pages = await pdfOf(response);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain(`${R.orderNumber} #${early}`);
    expect(pages[1]).toContain(`${R.orderNumber} #${late}`);
    expect(pages.join(' ')).not.toContain('Not yours');
    expect(pages.join(' ')).not.toContain('Next year');

    expect((await get('/api/PaymentHistory/receipts?year=2019', robin.token)).status).toBe(404);
    const bad = await get('/api/PaymentHistory/receipts?year=twenty', robin.token);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors?: Record<string, string[]> }).errors?.['year']).toEqual([
      'Must be a year such as 2026',
    ]);
  });

  it(`are limited to ${RECEIPTS_PER_MINUTE} a minute per member, counted once for requests sent at once`, async () => {
    const robin = await member();
    const other = await member();
    const id = await order(robin.subject, '2026-03-07T10:00:00Z', '49.00', [['Complete Blood Count', '49.00']]);
    const asked = RECEIPTS_PER_MINUTE + 10;
    const answers = await Promise.all(
      Array.from({ length: asked }, async () => {
        const response = await get(`/api/PaymentHistory/${id}/receipt`, robin.token);
        return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
      }),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(RECEIPTS_PER_MINUTE);
    expect(statuses.filter((status) => status === 429)).toHaveLength(asked - RECEIPTS_PER_MINUTE);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(JSON.parse(refused.body.toString('utf8'))).toMatchObject({ isError: true, message: R.tooMany });
    // A year's PDF counts too, and another member is not held back.
    const year = await get('/api/PaymentHistory/receipts?year=2026', robin.token);
    expect(year.status).toBe(429);
    await year.arrayBuffer();
    const mine = await order(other.subject, '2026-03-07T10:00:00Z', '19.00', [['Lipid Panel', '19.00']]);
    const theirs = await get(`/api/PaymentHistory/${mine}/receipt`, other.token);
    expect(theirs.status).toBe(200);
    await theirs.arrayBuffer();
  });
});

describe('my data', () => {
  it('is everything held about the member as one JSON file: account, personal information, orders, subscriptions, sessions, activity', async () => {
    const robin = await member();
    const other = await member('Other');
    const id = await order(robin.subject, '2026-03-07T15:00:00Z', '118.00', [
      ['Lipid Panel', '59.00'],
      ['Thyroid Panel', '79.00'],
    ]);
    await order(other.subject, '2026-03-07T15:00:00Z', '1.00', [['Not yours', '1.00']]);
    await pool.query(
      `insert into products (product_id, name, retail_price) values (990001, 'Vitamin D Monthly', '35.00')
       on conflict (product_id) do nothing`,
    );
    await pool.query(
      `with s as (insert into subscriptions (subject, price_per_interval, billing_interval, billing_period, cancelled_at)
                  values ($1, '35.00', 1, 'month', now()) returning subscription_id)
       insert into subscription_products (subscription_id, product_id, position)
       select subscription_id, 990001, 0 from s`,
      [robin.subject],
    );
    const response = await get('/api/me/export', robin.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="my-data-${new Date().toISOString().slice(0, 10)}.json"`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const data = (await response.json()) as Record<string, unknown> & {
      orders: { orderId: number; items: unknown[] }[];
      subscriptions: { cancelledAt: string | null; products: string[] }[];
      sessions: { current: boolean }[];
      securityActivity: { event: string }[];
    };
    expect(data).toMatchObject({
      controller: COMPANY,
      subject: robin.subject,
      identityProvider: 'embedded',
      account: { email: robin.email, groups: [] },
      personalInformation: {
        firstName: 'Robin',
        lastName: 'Okafor',
        email: robin.email,
        birthdate: '1990-02-03',
        phoneNumber: '(555) 010-4477',
        streetAddress: '12 Elm Street',
        city: 'Portland',
        stateProvince: 'OR',
        postalCode: '97205',
        countryRegion: 'United States',
      },
      accountDeletion: null,
    });
    expect(data.orders).toEqual([
      {
        orderId: id,
        date: '2026-03-07T15:00:00+00:00',
        status: 'Paid',
        totalAmount: 118,
        items: [
          { productName: 'Lipid Panel', price: 59 },
          { productName: 'Thyroid Panel', price: 79 },
        ],
      },
    ]);
    expect(data.subscriptions).toHaveLength(1);
    expect(data.subscriptions[0]!.cancelledAt).not.toBeNull();
    expect(data.subscriptions[0]!.products).toEqual(['Vitamin D Monthly']);
    expect(data.sessions).toHaveLength(1);
    expect(data.sessions[0]!.current).toBe(true);
    expect(data.securityActivity.map((e) => e.event)).toEqual(['sign-in']);
    expect(JSON.stringify(data)).not.toContain('Not yours');
    expect(JSON.stringify(data)).not.toContain(other.email);
    // The button's words are the contract's.
    expect(MY_DATA_TEXTS.action).toBe('Download my data');
  });
});

describe('closing the account', () => {
  it('needs the current password: a wrong one changes nothing and says so', async () => {
    const robin = await member();
    const response = await closeAccount(robin.token, 'Not-The-Password-1!');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ isError: true, message: D.wrongPassword });
    expect(await deletion.pending(robin.subject)).toBeNull();
    expect((await get('/api/userdetails/', robin.token)).status).toBe(200);
  });

  it(`schedules the deletion ${DELETION_GRACE_DAYS} days ahead, signs the member out everywhere at once and mails them`, async () => {
    const robin = await member();
    const elsewhere = await signIn(base, robin.email, PASSWORD);
    const before = Date.now();
    const response = await closeAccount(robin.token, PASSWORD);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { message: string; data: AccountDeletion[] };
    expect(body.message).toBe(D.scheduled);
    const deleteAfter = Date.parse(body.data[0]!.deleteAfter);
    expect(deleteAfter - before).toBeGreaterThanOrEqual(DELETION_GRACE_DAYS * DAY_MS - 1000);
    expect(deleteAfter - before).toBeLessThan(DELETION_GRACE_DAYS * DAY_MS + 60_000);

    // Both browsers' tokens stop working; their refresh tokens too.
    const refused = await waitFor(
      async () => [
        (await get('/api/userdetails/', robin.token)).status,
        (await get('/api/userdetails/', elsewhere.access_token)).status,
      ],
      (statuses) => statuses.every((status) => status === 401),
    );
    expect(refused).toEqual([401, 401]);
    expect((await refresh(base, robin.refreshToken)).status).toBe(400);
    expect((await refresh(base, elsewhere.refresh_token)).status).toBe(400);

    const mail = await waitFor(
      () => inbox.to(robin.email).filter((m) => m.subject === D.mailSubject),
      (list) => list.length > 0,
    );
    expect(mail).toHaveLength(1);
    const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    expect(mail[0]!.text).toContain(`will be deleted on ${day.format(new Date(deleteAfter))}`);
    expect(mail[0]!.text).toContain(`"${D.keep}"`);
  });

  it('counts wrong passwords before checking them: of 12 concurrent wrong guesses 5 are checked, 7 refused (429)', async () => {
    const robin = await member();
    const answers = await Promise.all(Array.from({ length: 12 }, () => closeAccount(robin.token, 'Wrong-Guess-000!')));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array<number>(5).fill(400), ...Array<number>(7).fill(429)]);
    expect(await deletion.pending(robin.subject)).toBeNull();
    // Even the right password waits out the window now.
    expect((await closeAccount(robin.token, PASSWORD)).status).toBe(429);
    expect(await deletion.pending(robin.subject)).toBeNull();
  });

  it('schedules once when two requests race: one answers 200, the other 409 or 401 (its session already ended)', async () => {
    const robin = await member();
    const statuses = (await Promise.all([closeAccount(robin.token, PASSWORD), closeAccount(robin.token, PASSWORD)]))
      .map((r) => r.status)
      .sort();
    expect(statuses[0]).toBe(200);
    // The loser either met the row (409) or came after the sessions had ended (401): never a second schedule.
    expect([401, 409]).toContain(statuses[1]);
    const { rows } = await pool.query('select 1 from account_deletions where subject = $1', [robin.subject]);
    expect(rows).toHaveLength(1);
  });

  it('keeps an administrator who stays: of two closing at once one is refused in the texts’ words, and none closing counts as staying', async () => {
    const admin = config.auth.roleGroups.Admin;
    // This file's database: no administrator but the two made here.
    await pool.query('update accounts set groups = array_remove(groups, $1)', [admin]);
    const [ann, bea] = [await member('Ann'), await member('Bea')];
    await pool.query('update accounts set groups = array_append(groups, $1) where account_id in ($2, $3)', [
      admin,
      ann.subject,
      bea.subject,
    ]);
    const answers = await Promise.all([closeAccount(ann.token, PASSWORD), closeAccount(bea.token, PASSWORD)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(await refused.json()).toMatchObject({ isError: true, message: D.lastAdmin });
    const { rows } = await pool.query('select subject from account_deletions where subject in ($1, $2)', [
      ann.subject,
      bea.subject,
    ]);
    expect(rows).toHaveLength(1);

    // Once another administrator is there to stay, the one refused may close theirs.
    const staying = answers[0]!.status === 409 ? ann : bea;
    const cid = await member('Cid');
    await pool.query('update accounts set groups = array_append(groups, $1) where account_id = $2', [
      admin,
      cid.subject,
    ]);
    expect((await closeAccount(staying.token, PASSWORD)).status).toBe(200);
    // Both closing now, neither counts as an administrator who stays: Cid cannot lose the Admin group.
    await expect(operatorGroups(database.db).revoke(cid.email, admin)).rejects.toMatchObject({
      message: ROLE_TEXTS.lastAdmin,
    });
  });

  it('signing in during the grace period asks first; "Continue with deletion" changes nothing, "Keep my account" cancels it and signs in', async () => {
    const robin = await member();
    expect((await closeAccount(robin.token, PASSWORD)).status).toBe(200);
    const deleteAfter = (await deletion.pending(robin.subject))!;
    const day = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(deleteAfter);

    const go = browser();
    const asked = await attemptSignIn(base, robin.email, PASSWORD, {}, go);
    expect(asked.status).toBe(200);
    const page = await asked.text();
    expect(page).toContain(`<h1>${D.pageTitle}</h1>`);
    expect(page).toContain(D.pageText(day));
    const keep = /<form method="post" action="([^"]+\/keep-account)">/.exec(page)![1]!;
    const leave = /<a href="([^"]+\/leave)">/.exec(page)![1]!;

    const left = await go(new URL(leave, base).toString());
    expect(left.status).toBe(200);
    expect(await left.text()).toContain(D.leftText(day));
    expect(await deletion.pending(robin.subject)).not.toBeNull();

    const kept = await go(new URL(keep, base).toString(), { method: 'POST' });
    expect(kept.status).toBe(303);
    expect(kept.headers.get('location')).toContain('/oidc/auth/');
    expect(await deletion.pending(robin.subject)).toBeNull();
    const cancelled = await waitFor(
      () => inbox.to(robin.email).filter((m) => m.subject === D.cancelledMailSubject),
      (list) => list.length > 0,
    );
    expect(cancelled).toHaveLength(1);
    // The next sign-in goes straight through.
    const again = await signIn(base, robin.email, PASSWORD);
    expect((await get('/api/userdetails/', again.access_token)).status).toBe(200);
  });

  it('"Keep my account" cannot be posted by a browser without the interaction: the held sign-in is its own', async () => {
    const robin = await member();
    expect((await closeAccount(robin.token, PASSWORD)).status).toBe(200);
    const page = await (await attemptSignIn(base, robin.email, PASSWORD)).text();
    const keep = /action="([^"]+\/keep-account)"/.exec(page)![1]!;
    const stranger = await browser()(new URL(keep, base).toString(), { method: 'POST' });
    expect(stranger.status).toBeGreaterThanOrEqual(400);
    expect(await deletion.pending(robin.subject)).not.toBeNull();
  });

  it('is carried out after the grace period: account and personal information gone, orders kept without the member, audited', async () => {
    const robin = await member();
    const other = await member('Other');
    await order(robin.subject, '2026-03-07T15:00:00Z', '118.00', [['Lipid Panel', '59.00']]);
    await order(robin.subject, '2026-04-07T15:00:00Z', '49.00', [['Complete Blood Count', '49.00']]);
    const kept = await order(other.subject, '2026-04-07T15:00:00Z', '12.00', [['Other order', '12.00']]);
    await pool.query(
      `insert into subscriptions (subject, price_per_interval, billing_interval, billing_period)
       values ($1, '35.00', 1, 'month')`,
      [robin.subject],
    );
    // An administrator's change to the account, named in the trail by the member's email.
    await pool.query(
      `insert into audit_entries (actor_id, actor_email, action, entity, entity_id, before, after, label)
       values ('admin-1', 'admin@example.com', 'member-groups-changed', 'member', $1, '{"groups":[]}',
               '{"groups":["Admin"]}', $2)`,
      [robin.subject, robin.email],
    );
    expect((await closeAccount(robin.token, PASSWORD)).status).toBe(200);

    // Not before its day.
    expect(
      (await deletion.purgeDue(new Date(Date.now() + (DELETION_GRACE_DAYS - 1) * DAY_MS))).map((p) => p.subject),
    ).not.toContain(robin.subject);
    expect(await deletion.pending(robin.subject)).not.toBeNull();

    const purged = await deletion.purgeDue(new Date(Date.now() + (DELETION_GRACE_DAYS + 1) * DAY_MS));
    expect(purged).toContainEqual({ subject: robin.subject, ordersAnonymised: 2 });

    const count = async (query: string, ...values: unknown[]) =>
      Number((await pool.query<{ n: string }>(`select count(*) as n from (${query}) q`, values)).rows[0]!.n);
    expect(await count('select 1 from accounts where account_id::text = $1', robin.subject)).toBe(0);
    expect(await count('select 1 from user_details where subject = $1', robin.subject)).toBe(0);
    expect(await count('select 1 from subscriptions where subject = $1', robin.subject)).toBe(0);
    expect(await count('select 1 from security_events where subject = $1', robin.subject)).toBe(0);
    expect(await count('select 1 from known_devices where account_id = $1', robin.subject)).toBe(0);
    expect(await count('select 1 from orders where subject = $1', robin.subject)).toBe(0);
    expect(await count('select 1 from account_deletions where subject = $1', robin.subject)).toBe(0);
    // The orders stay for the books, each under a random subject of its own, with nothing that names the member.
    const { rows: anonymous } = await pool.query<{ subject: string; total: string; names: string }>(
      `select o.subject, o.total_amount::text as total, string_agg(i.product_name, ', ') as names
       from orders o join order_items i using (order_id)
       where o.total_amount in (118, 49) and o.subject like 'deleted:%' and i.product_name in ('Lipid Panel', 'Complete Blood Count')
       group by o.order_id`,
    );
    expect(anonymous.map((o) => o.total).sort()).toEqual(['118.00', '49.00']);
    expect(new Set(anonymous.map((o) => o.subject)).size).toBe(2);
    const { rows: leftovers } = await pool.query(
      `select 1 from (select row_to_json(t)::text as r from orders t union all select row_to_json(t)::text from audit_entries t) x
       where r ilike $1 or r ilike '%Okafor%' or r ilike '%Elm Street%' or r ilike '%555%010%'`,
      [`%${robin.email}%`],
    );
    expect(leftovers).toEqual([]);
    // The other member is untouched.
    expect(await count('select 1 from orders where order_id = $1 and subject = $2', kept, other.subject)).toBe(1);
    expect(await count('select 1 from user_details where subject = $1', other.subject)).toBe(1);

    const { rows: audit } = await pool.query(
      `select actor_id, action, entity, entity_id, before, after, label from audit_entries where entity_id = $1
       order by id`,
      [robin.subject],
    );
    expect(audit).toEqual([
      // What was done stays; whose account it was does not.
      {
        actor_id: 'admin-1',
        action: 'member-groups-changed',
        entity: 'member',
        entity_id: robin.subject,
        before: { groups: [] },
        after: { groups: ['Admin'] },
        label: null,
      },
      {
        actor_id: 'system',
        action: 'account-deleted',
        entity: 'member',
        entity_id: robin.subject,
        before: expect.objectContaining({ ordersAnonymised: 2, subscriptionsDeleted: 1 }),
        after: null,
        label: null,
      },
    ]);
    // The audit trail cannot be edited, even by the server's own SQL.
    await expect(
      pool.query(`update audit_entries set action = 'x' where entity_id = $1`, [robin.subject]),
    ).rejects.toThrow('audit entries are never changed or removed');
    await expect(pool.query('delete from audit_entries where entity_id = $1', [robin.subject])).rejects.toThrow(
      'audit entries are never changed or removed',
    );
    await expect(pool.query('truncate audit_entries')).rejects.toThrow('audit entries are never changed or removed');
    // Only a deleted account's entries may lose their name: a living member's may not.
    await pool.query(
      `insert into audit_entries (actor_id, actor_email, action, entity, entity_id, before, after, label)
       values ('admin-1', 'admin@example.com', 'member-sessions-ended', 'member', $1, '{"sessions":1}',
               '{"sessions":0}', $2)`,
      [other.subject, other.email],
    );
    await expect(
      pool.query(`update audit_entries set label = null where entity_id = $1`, [other.subject]),
    ).rejects.toThrow('audit entries are never changed or removed');
    // The old credentials sign nobody in.
    const attempt = await attemptSignIn(base, robin.email, PASSWORD);
    expect(attempt.status).toBe(401);
  });

  it('purged by two processes at once, each closed account is purged exactly once', async () => {
    const closed = await Promise.all([member(), member(), member(), member()]);
    for (const m of closed) expect((await closeAccount(m.token, PASSWORD)).status).toBe(200);
    const later = new Date(Date.now() + (DELETION_GRACE_DAYS + 1) * DAY_MS);
    const second = createAccountDeletion({
      db: database.appRole.db,
      config,
      secrets: testSecrets(database.appRole.db),
    });
    const [a, b] = await Promise.all([deletion.purgeDue(later), second.purgeDue(later)]);
    const subjects = [...a, ...b].map((p) => p.subject).filter((s) => closed.some((m) => m.subject === s));
    expect(subjects.sort()).toEqual(closed.map((m) => m.subject).sort());
    const { rows } = await pool.query(`select entity_id from audit_entries where entity_id = any($1)`, [
      closed.map((m) => m.subject),
    ]);
    expect(rows).toHaveLength(4);
  });

  it("holds the member's changes of email address: both addresses, and when each was asked for, confirmed or cancelled", async () => {
    const robin = await member();
    const moved = `moved-${randomBytes(4).toString('hex')}@example.com`;
    const url = `${base}/api/me/email-change`;
    const asked = await fetch(url, {
      method: 'POST',
      headers: { ...dpopHeaders(robin.token, 'POST', url), 'content-type': 'application/json' },
      body: JSON.stringify({ newEmail: moved, password: PASSWORD }),
    });
    expect(asked.status).toBe(202);
    const cancelled = await fetch(url, { method: 'DELETE', headers: dpopHeaders(robin.token, 'DELETE', url) });
    expect(cancelled.status).toBe(200);
    const data = (await (await get('/api/me/export', robin.token)).json()) as {
      account: { emailVerified: boolean };
      emailChanges: Record<string, string | null>[];
    };
    expect(data.account.emailVerified).toBe(true);
    expect(data.emailChanges).toEqual([
      {
        oldEmail: robin.email,
        newEmail: moved,
        requestedAt: expect.any(String),
        confirmedAt: null,
        cancelledAt: expect.any(String),
        revertedAt: null,
      },
    ]);
  });
});
