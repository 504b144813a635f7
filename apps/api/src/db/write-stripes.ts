import { sql, type SQL } from 'drizzle-orm';
import { literal } from '../modules/lists/list-statements.js';

/**
 * Values many writers move, kept as stripes (migration 0022, decision 036): the catalog's and the audit trail's data
 * versions and the trail's entry count are 16 rows each, and a reader takes their sum. A transaction adds to the
 * stripe it names in `ums.write_stripe` (none: stripe 0), so writers naming different stripes never wait for each
 * other's rows.
 */
export const WRITE_STRIPES = 16;

type StripedValue = 'catalog' | 'audit' | 'audit_entries';

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
