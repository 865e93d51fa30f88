/**
 * Payments routes shared by top-up and cash-out: currency/list (SPEC 7), the public configuration
 * (`/api/uc/v1/config`), the currency logos (`/static/currencies/*.svg`, the app's own assets) and,
 * only when PAYMENTS=sandbox, the simulate-payment path `/api/dev/sandbox/pay` (DESIGN 8).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import {
  CURRENCY_LIST_CACHE_MS,
  CurrencyListDataSchema,
  CurrencyListRequestSchema,
  PublicConfigDataSchema,
  PublicConfigRequestSchema,
  SandboxPayDataSchema,
  SandboxPayRequestSchema,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineRoute, ucPath } from '../../lib/route';
import { CURRENCY_LOGO_PATH } from '../../providers/payments/sandbox';
import type { DepositsService } from '../deposits/deposits.service';
import type { PaymentsService } from './payments.service';

/** apps/web/public/currencies: the logos ship with the web app and the server serves them too. */
const logosDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/public/currencies');

export async function paymentRoutes(app: FastifyInstance, payments: PaymentsService, deposits: DepositsService) {
  defineRoute(
    app,
    {
      path: ucPath('/currency/list'),
      body: CurrencyListRequestSchema,
      data: CurrencyListDataSchema,
      auth: 'optional',
      tags: ['top-up', 'cash-out'],
      summary: 'Currencies of the active payment provider (cached 5 minutes)',
    },
    async ({ reply }) => {
      reply.header('Cache-Control', `private, max-age=${CURRENCY_LIST_CACHE_MS / 1000}`);
      return payments.currencies();
    },
  );
  defineRoute(
    app,
    {
      path: '/api/uc/v1/config',
      body: PublicConfigRequestSchema,
      data: PublicConfigDataSchema,
      auth: 'none',
      tags: ['config'],
      summary: 'Public settings the web app reads',
    },
    async () => payments.publicConfig(),
  );
  if (payments.provider.sandbox) {
    defineRoute(
      app,
      {
        path: '/api/dev/sandbox/pay',
        body: SandboxPayRequestSchema,
        data: SandboxPayDataSchema,
        auth: 'required',
        tags: ['sandbox'],
        summary: "Sandbox only: pay one of the caller's top-up bills (in full unless currency_amount is given)",
      },
      ({ auth, body }) => deposits.simulatePayment(auth.userId, body.bill_id, body.currency_amount),
    );
  }
  await app.register(fastifyStatic, {
    root: logosDir,
    prefix: CURRENCY_LOGO_PATH,
    decorateReply: false,
    maxAge: 86_400_000,
  });
}
