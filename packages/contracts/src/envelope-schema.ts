import { z } from 'zod';
import { pageSchema } from './lists-schema.js';

export const envelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    isError: z.boolean(),
    message: z.string(),
    data: z.array(item),
    page: pageSchema.optional(),
  });

export const errorEnvelopeSchema = z.object({
  isError: z.literal(true),
  message: z.string(),
  /** Empty, but where a conflict answers what it conflicts with (a revert: the entity's current state). */
  data: z.array(z.unknown()),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  /** The request's id (also in the X-Request-Id header and on every log line of the request), for support. */
  requestId: z.string().optional(),
});
