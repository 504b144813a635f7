import { Readable } from 'node:stream';
import type pg from 'pg';
import Cursor from 'pg-cursor';
import { listStatement, type AnyListDefinition, type ListRequest } from './list-statements.js';

/** Rows read from PostgreSQL at a time: the export's memory stays this size whatever the list's length. */
export const CSV_BATCH_ROWS = 500;

/** What a spreadsheet would run as a formula (or a DDE command) when a cell begins with it. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One value as text: lists joined by "; ", a product by its name (with its package price when it has one), other
 * objects as JSON, nothing as empty.
 */
function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(text).join('; ');
  if (typeof value === 'object') {
    const item = value as Record<string, unknown>;
    const name = item['name'] ?? item['productName'];
    if (typeof name !== 'string') return JSON.stringify(value);
    return typeof item['price'] === 'number' ? `${name} (${item['price'].toFixed(2)})` : name;
  }
  return String(value);
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote, CR or LF, quotes doubled. A cell that begins with
 * =, +, -, @, tab or CR gets a leading apostrophe first, so a spreadsheet shows it instead of running it (OWASP's
 * advice against CSV injection).
 */
export function csvCell(value: unknown): string {
  let cell = text(value);
  if (FORMULA_START.test(cell)) cell = `'${cell}`;
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

export const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * Streams a list call's whole filtered, sorted list as CSV: a header row of the given fields, then a line per item,
 * read through a server-side cursor a batch at a time, each batch written only when the client has taken the
 * last (backpressure), so memory stays flat on any length. The connection goes back to the pool at the end, on an
 * error, or when the client leaves.
 */
export function streamCsv(
  pool: pg.Pool,
  spec: AnyListDefinition,
  request: ListRequest,
  { fields, jsonFields = [] }: { fields: readonly string[]; jsonFields?: readonly string[] },
  scope: unknown[] = [],
): Readable {
  const statement = listStatement(spec, request, scope, true);
  const asJson = new Set(jsonFields);
  const cell = (item: Record<string, unknown>, field: string) =>
    asJson.has(field) && item[field] !== null && item[field] !== undefined ? JSON.stringify(item[field]) : item[field];
  async function* lines() {
    yield csvLine([...fields]);
    const client = await pool.connect();
    const cursor = client.query(new Cursor<{ item: string }>(statement.text, statement.values));
    try {
      for (;;) {
        const rows = await cursor.read(CSV_BATCH_ROWS);
        if (rows.length === 0) return;
        let chunk = '';
        for (const row of rows) {
          const item = JSON.parse(row.item) as Record<string, unknown>;
          chunk += csvLine(fields.map((field) => cell(item, field)));
        }
        yield chunk;
      }
    } finally {
      await cursor.close().catch(() => undefined);
      client.release();
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

/** The file an export downloads as: the list's name and today's date. */
export const csvFileName = (list: string) => `${list}-${new Date().toISOString().slice(0, 10)}.csv`;
