import {
  ACCOUNT_DELETION_TEXTS,
  accountDeletionRequestSchema,
  errorEnvelopeSchema,
  accountDeletionSchema,
  myDataFileName,
  ok,
  orderIdParamsSchema,
  RECEIPT_TEXTS,
  receiptFileName,
  receiptYearQuerySchema,
  yearReceiptsFileName,
} from '@ums/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { originOf } from '../../identity/security-events.js';
import { requireUser } from '../../plugins/auth.js';
import { answers } from '../envelope-schema.js';
import { sendFile } from '../lists/json-text.js';
import type { AccountDeletion } from './account-deletion.js';
import type { MyData } from './my-data.js';
import type { Receipts } from './receipts.js';

const member = { policy: 'member' as const };
/** A file answer: its body is not an envelope, its errors are. */
const fileAnswers = { '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema };

/** Members' self-service: receipts, their data, closing their account. */
export const selfServiceRoutes: FastifyPluginAsyncZod<{
  receipts: Receipts;
  myData: MyData;
  deletion: AccountDeletion;
}> = async (app, { receipts, myData, deletion }) => {
  app.get('/api/PaymentHistory/:orderId/receipt', {
    config: member,
    schema: {
      tags: ['account'],
      summary: "One of the caller's orders as a PDF receipt (another member's order: 404)",
      params: orderIdParamsSchema,
      response: fileAnswers,
    },
    handler: async (request, reply) => {
      const user = requireUser(request);
      await receipts.allow(user.subject);
      const order = await receipts.order(user.subject, request.params.orderId);
      const to = await receipts.member(user.subject, user.email);
      const pdf = await receipts.render([order], to, `${RECEIPT_TEXTS.title} #${order.orderId}`);
      return sendFile(reply, 'application/pdf', receiptFileName(order.orderId), pdf);
    },
  });
  app.get('/api/PaymentHistory/receipts', {
    config: member,
    schema: {
      tags: ['account'],
      summary: "Every receipt of the caller's orders in a calendar year (UTC), as one PDF",
      querystring: receiptYearQuerySchema,
      response: fileAnswers,
    },
    handler: async (request, reply) => {
      const user = requireUser(request);
      await receipts.allow(user.subject);
      const { year } = request.query;
      const orders = await receipts.year(user.subject, year);
      const to = await receipts.member(user.subject, user.email);
      const pdf = await receipts.render(orders, to, `${RECEIPT_TEXTS.title}s ${year}`);
      return sendFile(reply, 'application/pdf', yearReceiptsFileName(year), pdf);
    },
  });
  app.get('/api/me/export', {
    // All of a member's health data in one file: a recent sign-in first (RFC 9470 step-up).
    config: { ...member, stepUp: true },
    schema: {
      tags: ['account'],
      summary: 'Everything held about the caller, as one JSON file (GDPR articles 15 and 20)',
      response: fileAnswers,
    },
    handler: async (request, reply) => {
      const data = await myData.exportFor(requireUser(request));
      const day = new Date().toISOString().slice(0, 10);
      return sendFile(reply, 'application/json; charset=utf-8', myDataFileName(day), JSON.stringify(data, null, 2));
    },
  });
  app.post('/api/me/deletion', {
    config: member,
    schema: {
      tags: ['account'],
      summary: "Close the caller's account: deleted after the grace period unless they sign in and keep it",
      body: accountDeletionRequestSchema,
      response: answers(accountDeletionSchema),
    },
    handler: async (request) => {
      const user = requireUser(request);
      const scheduled = await deletion.schedule(user, request.body, originOf(request));
      return ok(scheduled, ACCOUNT_DELETION_TEXTS.scheduled);
    },
  });
};
