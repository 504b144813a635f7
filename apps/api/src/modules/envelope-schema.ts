import { envelopeSchema, errorEnvelopeSchema } from '@ums/contracts';
import { z } from 'zod';

/** Response schemas for a route: the success envelope of `item`, and the error envelope. */
export function answers<T extends z.ZodType>(item: T, status: 200 | 201 | 202 = 200) {
  return {
    [status]: envelopeSchema(item),
    '4xx': errorEnvelopeSchema,
    '5xx': errorEnvelopeSchema,
  } as {
    200: ReturnType<typeof envelopeSchema<T>>;
    '4xx': typeof errorEnvelopeSchema;
    '5xx': typeof errorEnvelopeSchema;
  };
}
