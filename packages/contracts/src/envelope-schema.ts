import { z } from 'zod';

export const envelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    isError: z.boolean(),
    message: z.string(),
    data: z.array(item),
  });

export const errorEnvelopeSchema = z.object({
  isError: z.literal(true),
  message: z.string(),
  data: z.array(z.never()),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
