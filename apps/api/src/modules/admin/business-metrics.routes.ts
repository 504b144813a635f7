import { ok } from '@ums/contracts';
import { adminMetricsSchema, metricsQuerySchema } from '@ums/contracts/metrics-schema';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answers } from '../envelope-schema.js';
import type { BusinessMetrics } from './business-metrics.js';

/** The admin overview's charts: the business over a range, in the company's time zone. */
export const businessMetricsRoutes: FastifyPluginAsyncZod<{ metrics: BusinessMetrics }> = async (app, { metrics }) => {
  app.get('/api/admin/metrics', {
    config: { policy: 'metrics' },
    schema: {
      tags: ['admin'],
      summary:
        'Members, closed accounts, subscriptions, orders and revenue, sign-ins and catalog changes per day, week or ' +
        'month of a range of at most 2 years (days in BUSINESS_TIME_ZONE; empty buckets answer 0)',
      querystring: metricsQuerySchema,
      response: answers(adminMetricsSchema),
    },
    handler: async (request) => ok(await metrics.series(request.query)),
  });
};
