/**
 * Payments routes shared by top-up and cash-out: currency/list (product §7), the public configuration
 * (`/api/uc/v1/config`), the currency logos (`/static/currencies/*.svg`, the app's own assets) and,
 * only when PAYMENTS=sandbox, the simulate-payment path `/api/dev/sandbox/pay` (product §17) and
 * `/api/dev/sandbox/clear` (a seller's pending proceeds clear now, product §30).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { CURRENCY_LIST_CACHE_MS } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import { CURRENCY_LOGO_PATH } from '../../providers/payments/sandbox';
import type { DepositsService } from '../deposits/deposits.service';
import type { ClearanceService } from '../orders/clearance.service';
import type { PaymentsService } from './payments.service';

/** apps/web/public/currencies: the logos ship with the web app and the server serves them too. */
const logosDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/public/currencies');

export async function paymentRoutes(
  app: FastifyInstance,
  payments: PaymentsService,
  deposits: DepositsService,
  clearance?: Pick<ClearanceService, 'clearNowForSeller'>,
) {
  defineEndpoint(app, 'currencyList', {}, async ({ reply }) => {
    reply.header('Cache-Control', `private, max-age=${CURRENCY_LIST_CACHE_MS / 1000}`);
    return payments.currencies();
  });
  defineEndpoint(app, 'publicConfig', {}, async () => payments.publicConfig());
  if (payments.provider.sandbox) {
    defineEndpoint(app, 'sandboxPay', {}, ({ auth, body }) =>
      deposits.simulatePayment(auth.userId, body.bill_id, body.currency_amount),
    );
    // The sandbox's time machine for the holding period (docs/product.md §30).
    if (clearance) defineEndpoint(app, 'sandboxClear', {}, ({ auth }) => clearance.clearNowForSeller(auth.userId));
  }
  await app.register(fastifyStatic, {
    root: logosDir,
    prefix: CURRENCY_LOGO_PATH,
    decorateReply: false,
    maxAge: 86_400_000,
  });
}
