/** Deposit routes (product §7: deposit/min-amount, deposit, deposit/bill/detail). Thin: parse, call the service, answer. */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { DepositsService } from './deposits.service';

export function depositRoutes(app: FastifyInstance, deposits: DepositsService) {
  defineEndpoint(app, 'depositMinAmount', {}, async ({ body, reply }) => {
    reply.header('Cache-Control', 'no-store');
    return deposits.minAmount(body.currency_from);
  });
  defineEndpoint(app, 'deposit', {}, ({ auth, body }) => deposits.create(auth.userId, body));
  defineEndpoint(app, 'depositBillDetail', {}, ({ auth, body }) => deposits.detail(auth.userId, body));
}
