import { sql, type SQL } from 'drizzle-orm';
import { literal } from '../modules/lists/list-statements.js';
import { listCounts } from './schema/index.js';

/**
 * Values many writers move, kept as stripes (migrations 0022 and 0023, decisions 036 and 040): the catalog's and the
 * audit trail's data versions, the trail's entry count and the catalog lists' counts are 16 rows each, and a reader
 * takes their sum. A transaction adds to the stripe it names in `ums.write_stripe` (none: stripe 0), so writers
 * naming different stripes never wait for each other's rows.
 */
export const WRITE_STRIPES = 16;

/** The catalog lists' kept counts, striped too (migration 0023, decision 040). */
type CountedCatalogTable = 'products' | 'memberships' | 'discount_packages' | 'promotional_products';
type StripedCount = 'audit_entries' | CountedCatalogTable;
type StripedValue = 'catalog' | 'audit' | StripedCount;

/** The rows of a striped value: stripe 0 is the row under its own name (the row before stripes), then `<base>#<n>`. */
export const stripeKeys = (base: StripedValue): string[] =>
  Array.from({ length: WRITE_STRIPES }, (_, n) => (n === 0 ? base : `${base}#${n}`));

/**
 * The stripe of a package's or a membership's writes (decision 040): entities whose ids are less than 16 apart never
 * share one.
 */
export const entityStripe = (id: number): number => ((id % WRITE_STRIPES) + WRITE_STRIPES) % WRITE_STRIPES;

/** A striped value's keys as SQL literals, so the statements that read them keep no parameters. */
export const stripeKeyList = (base: StripedValue): SQL => sql.join(stripeKeys(base).map(literal), sql`, `);

/** A striped count's value, the sum of its stripes, as a scalar subquery without parameters. */
export const stripedCount = (base: StripedCount): SQL =>
  sql`(select coalesce(sum(${listCounts.n}), 0)::bigint from ${listCounts}
       where ${listCounts.key} in (${stripeKeyList(base)}))`;
