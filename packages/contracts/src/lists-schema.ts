import { z } from 'zod';
import { LIST_LIMIT_MAX, LIST_SEARCH_MAX, LISTS, type ListName, type Page } from './lists.js';

/** The query string of a list call: bad values answer 400 with a message per field. */
export function listQuerySchema(list: ListName) {
  const fields: readonly string[] = LISTS[list].sorts;
  const sorts = [...fields, ...fields.map((f) => `-${f}`)];
  return z.object({
    limit: z
      .string({ error: `Must be a whole number from 1 to ${LIST_LIMIT_MAX}` })
      .regex(/^\d{1,3}$/, `Must be a whole number from 1 to ${LIST_LIMIT_MAX}`)
      .transform(Number)
      .pipe(
        z
          .number()
          .min(1, `Must be a whole number from 1 to ${LIST_LIMIT_MAX}`)
          .max(LIST_LIMIT_MAX, `Must be a whole number from 1 to ${LIST_LIMIT_MAX}`),
      )
      .optional(),
    cursor: z
      .string({ error: 'Must be the nextCursor of a previous page' })
      .min(1, 'Must be the nextCursor of a previous page')
      .max(1024, 'Must be the nextCursor of a previous page')
      .optional(),
    q: z
      .string({ error: 'Search must be text' })
      .trim()
      .max(LIST_SEARCH_MAX, `Search must be at most ${LIST_SEARCH_MAX} characters`)
      .optional(),
    sort: z
      .string({ error: `Must be one of: ${sorts.join(', ')}` })
      .refine((value) => sorts.includes(value), `Must be one of: ${sorts.join(', ')}`)
      .optional(),
  });
}

export const pageSchema = z.object({
  nextCursor: z.string().nullable(),
  total: z.number().int(),
  totalAtLeast: z
    .boolean()
    .optional()
    .describe(
      'Given by searched and filtered pages of the member directory and the audit trail: true when they matched more ' +
        'than total (1000), which is then a lower bound',
    ),
}) satisfies z.ZodType<Page>;

/** A list call an administrator may also download whole: `format=csv` streams the filtered, sorted list as CSV. */
export function exportableListQuerySchema(list: ListName) {
  return listQuerySchema(list).extend({
    format: z.literal('csv', { error: 'Must be csv' }).optional(),
  });
}
