import { z } from 'zod';
import { MONEY_PATTERN } from './money.js';
import { isOneLine, oneLineMessage } from './one-line.js';

/** Positive integer ids in bodies: numbers only. */
export const idSchema = z
  .number({ error: 'Must be a numeric id' })
  .int('Must be a whole number')
  .positive('Must be a positive id')
  .max(2_147_483_647, 'Id is too large');

/** Ids in the address ("12"). */
export const idParamSchema = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, 'Must be a positive numeric id')
  .transform(Number)
  .pipe(idSchema);

export const idParamsSchema = z.object({ id: idParamSchema });

export { isOneLine, oneLineMessage };

/** Text that must not be blank once trimmed, on one line. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(isOneLine, oneLineMessage(label));

/** Text that may be left out; on one line unless `lines` says it may hold several (a description). */
export const optionalText = (label: string, max: number, lines: 'one' | 'many' = 'one') =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((value) => lines === 'many' || isOneLine(value), oneLineMessage(label))
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));

/**
 * Money in USD: a number or a decimal string with at most 2 decimals, never negative.
 * The answer is a number rounded to cents.
 */
export const moneySchema = z
  .union([z.number(), z.string()], { error: 'Price must be a decimal number such as 12.50' })
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim();
    if (!MONEY_PATTERN.test(text) || !Number.isFinite(Number(text))) {
      ctx.addIssue({
        code: 'custom',
        message: 'Price must be a decimal number from 0 to 99999999.99 with at most 2 decimals',
      });
      return z.NEVER;
    }
    return Number(text);
  });

export const moneyOutput = z.number().describe('USD amount with 2 decimals');
