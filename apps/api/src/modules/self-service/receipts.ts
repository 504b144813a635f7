import { createRequire } from 'node:module';
import { PassThrough, type Readable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { RECEIPT_TEXTS, RECEIPTS_PER_MINUTE } from '@ums/contracts';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { orderItems, orders, userDetails } from '../../db/schema/index.js';
import { attemptKey, type AttemptLimiter } from '../../identity/attempt-limiter.js';
import { HttpError, notFound } from '../../plugins/http-errors.js';
import { jsonObject } from '../lists/list-statements.js';
import { onFirstUse } from '../../lib/on-first-use.js';

/** One line of an order as its receipt shows it. */
export interface ReceiptItem {
  name: string;
  price: string | null;
}

/** One order as its receipt shows it. */
export interface ReceiptOrder {
  orderId: number;
  total: string;
  orderedAt: Date;
  status: string;
  items: ReceiptItem[];
}

/** Who the receipt is for: the member's name and address as their personal information holds them. */
export interface ReceiptMember {
  name: string;
  email: string | null;
  addressLines: string[];
}

const require = createRequire(import.meta.url);
// DejaVu Sans covers Latin, Greek and Cyrillic names; the PDF embeds only the glyphs a receipt uses.
const FONT_FILES = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
};
/** Read once, on the first receipt: every receipt after it embeds its glyphs from memory, not from the disk. */
let fonts: { regular: Buffer; bold: Buffer } | null = null;
const pdfkit = onFirstUse(async () => (await import('pdfkit')).default);
const fontData = () => (fonts ??= { regular: readFileSync(FONT_FILES.regular), bold: readFileSync(FONT_FILES.bold) });

/** Money as the account page shows it: "$1,250.00". */
const money = (value: string | number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(value));
const cents = (value: string) => Math.round(Number(value) * 100);
/**
 * Dates as the payment history shows them ("Mar 7, 2026"), in UTC, which the receipt says. One formatter for the
 * process: each new one leaves ICU's memory behind in the malloc heap (decision 034).
 */
const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const day = (at: Date) => DAY.format(at);

/** An order's items in their order, as JSON PostgreSQL builds (prices as text, so no cent is lost to a float). */
const ORDER_ITEMS = sql<ReceiptItem[]>`coalesce((
  select json_agg(${jsonObject<ReceiptItem>({
    name: orderItems.productName,
    price: sql<string | null>`${orderItems.price}::text`,
  })} order by ${orderItems.position})
  from ${orderItems} where ${orderItems.orderId} = ${orders.orderId}), '[]'::json)`;

/**
 * The orders meeting `where`, oldest first, as their receipts show them. A statement of its own rather than the query
 * builder's select: a select from one table writes its columns unqualified, and the items' subquery would then compare
 * `order_items.order_id` with itself.
 */
async function ordersWhere(db: Database, where: SQL): Promise<ReceiptOrder[]> {
  const { rows } = await db.execute<Omit<ReceiptOrder, 'orderedAt'> & { orderedAt: string }>(sql`
    select ${orders.orderId} as "orderId", ${orders.totalAmount}::text as total, ${orders.orderedAt} as "orderedAt",
           ${orders.status} as status, ${ORDER_ITEMS} as items
    from ${orders} where ${where}
    order by ${orders.orderedAt}, ${orders.orderId}`);
  // drizzle's statements answer timestamps as PostgreSQL writes them; the receipt formats a Date.
  return rows.map((row) => ({ ...row, orderedAt: new Date(row.orderedAt) }));
}

export function createReceipts({
  db,
  company,
  limiter,
}: {
  db: Database;
  company: string;
  /** Counts each member's receipts: a PDF costs the server far more than the request does the client. */
  limiter: AttemptLimiter;
}) {
  async function member(subject: string, tokenEmail: string | null): Promise<ReceiptMember> {
    const [row] = await db
      .select({
        firstName: userDetails.firstName,
        lastName: userDetails.lastName,
        email: userDetails.email,
        streetAddress: userDetails.streetAddress,
        city: userDetails.city,
        stateProvince: userDetails.stateProvince,
        postalCode: userDetails.postalCode,
        countryRegion: userDetails.countryRegion,
      })
      .from(userDetails)
      .where(eq(userDetails.subject, subject));
    const email = row?.email ?? tokenEmail;
    const name = [row?.firstName, row?.lastName].filter(Boolean).join(' ') || email || subject;
    const place = [row?.city, [row?.stateProvince, row?.postalCode].filter(Boolean).join(' ')]
      .filter(Boolean)
      .join(', ');
    const addressLines = [row?.streetAddress, place, row?.countryRegion].filter((line): line is string =>
      Boolean(line),
    );
    return { name, email, addressLines };
  }

  return {
    /** Counts one receipt (or one year's PDF) against the member's minute; 429 past it, on any process. */
    async allow(subject: string): Promise<void> {
      const reserved = await limiter.reserve([
        { key: attemptKey('receipt', subject), max: RECEIPTS_PER_MINUTE, windowMs: 60_000 },
      ]);
      if (!reserved.reserved) throw new HttpError(429, RECEIPT_TEXTS.tooMany);
    },

    /** One of the member's orders, or 404 (another member's order answers exactly like one that does not exist). */
    async order(subject: string, orderId: number): Promise<ReceiptOrder> {
      const [order] = await ordersWhere(db, sql`${orders.subject} = ${subject} and ${orders.orderId} = ${orderId}`);
      if (!order) throw notFound(`Order ${orderId}`);
      return order;
    },

    /** The member's orders of a calendar year (UTC), oldest first, or 404 when there are none. */
    async year(subject: string, year: number): Promise<ReceiptOrder[]> {
      const found = await ordersWhere(
        db,
        sql`${orders.subject} = ${subject}
          and ${orders.orderedAt} >= make_timestamptz(${year}, 1, 1, 0, 0, 0, 'UTC')
          and ${orders.orderedAt} < make_timestamptz(${year + 1}, 1, 1, 0, 0, 0, 'UTC')`,
      );
      if (found.length === 0) throw notFound(`An order in ${year}`);
      return found;
    },

    member,

    /** The receipts as one PDF, a page per order, streamed as it is written. */
    async render(orders: ReceiptOrder[], to: ReceiptMember, title: string): Promise<Readable> {
      const PDFDocument = await pdfkit();
      const doc = new PDFDocument({
        size: 'LETTER',
        margin: 56,
        autoFirstPage: false,
        info: { Title: title, Author: company, Creator: company },
      });
      const { regular, bold } = fontData();
      doc.registerFont('regular', regular);
      doc.registerFont('bold', bold);
      for (const order of orders) receiptPage(doc, order, to, company);
      doc.end();
      // pdfkit's document is a readable stream in the older style; a PassThrough gives Fastify a plain one.
      return doc.pipe(new PassThrough());
    },
  };
}

export type Receipts = ReturnType<typeof createReceipts>;

function receiptPage(doc: PDFKit.PDFDocument, order: ReceiptOrder, to: ReceiptMember, company: string) {
  doc.addPage();
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const priceX = left + width - 120;

  doc.font('bold').fontSize(20).text(company, left, doc.page.margins.top);
  doc.font('regular').fontSize(11).fillColor('#444').text(RECEIPT_TEXTS.hsaLine);
  doc.moveDown(1.5).fillColor('#000');
  doc.font('bold').fontSize(16).text(`${RECEIPT_TEXTS.title} #${order.orderId}`);
  doc.moveDown(0.5);

  const facts: [string, string][] = [
    [RECEIPT_TEXTS.orderNumber, `#${order.orderId}`],
    [RECEIPT_TEXTS.date, `${day(order.orderedAt)} (UTC)`],
    [RECEIPT_TEXTS.status, order.status],
  ];
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font('bold').fontSize(11).text(label, left, y, { width: 130 });
    doc.font('regular').text(value, left + 140, y);
  }
  doc.moveDown(0.8);
  doc.font('bold').text(RECEIPT_TEXTS.billedTo, left);
  doc.font('regular').text(to.name);
  for (const line of to.addressLines) doc.text(line);
  if (to.email) doc.text(to.email);
  doc.moveDown(1.2);

  // Items: product and price columns, a rule under the heading.
  const headingY = doc.y;
  doc.font('bold').text(RECEIPT_TEXTS.product, left, headingY, { width: priceX - left - 10 });
  doc.text(RECEIPT_TEXTS.price, priceX, headingY, { width: 120, align: 'right' });
  doc
    .moveTo(left, doc.y + 2)
    .lineTo(left + width, doc.y + 2)
    .strokeColor('#999')
    .stroke();
  doc.moveDown(0.4);
  const priced = order.items.length > 0 && order.items.every((item) => item.price !== null);
  doc.font('regular');
  for (const item of order.items) {
    const y = doc.y;
    doc.text(item.name, left, y, { width: priceX - left - 10 });
    const after = doc.y;
    doc.text(item.price === null ? '' : money(item.price), priceX, y, { width: 120, align: 'right' });
    doc.y = Math.max(after, doc.y);
  }
  doc.moveDown(0.6);

  const sums: [string, string][] = [];
  if (priced) {
    const subtotal = order.items.reduce((sum, item) => sum + cents(item.price ?? '0'), 0);
    const discount = subtotal - cents(order.total);
    sums.push([RECEIPT_TEXTS.subtotal, money(subtotal / 100)]);
    if (discount > 0) sums.push([RECEIPT_TEXTS.discounts, `−${money(discount / 100)}`]);
  }
  sums.push([RECEIPT_TEXTS.total, money(order.total)]);
  for (const [label, value] of sums) {
    const y = doc.y;
    const font = label === RECEIPT_TEXTS.total ? 'bold' : 'regular';
    doc.font(font).text(label, priceX - 150, y, { width: 140, align: 'right' });
    doc.text(value, priceX, y, { width: 120, align: 'right' });
  }
  if (!priced) {
    doc.moveDown(1).font('regular').fontSize(9).fillColor('#444').text(RECEIPT_TEXTS.priceNotRecorded, left);
    doc.fillColor('#000');
  }
}
