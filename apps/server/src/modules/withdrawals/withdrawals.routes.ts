/** Withdraw routes (product §7: withdraw/estimate/fee, create, confirm, bill/detail). Thin: parse, call the service, answer. */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { WithdrawalsService } from './withdrawals.service';

export function withdrawalRoutes(app: FastifyInstance, withdrawals: WithdrawalsService) {
  defineEndpoint(app, 'withdrawEstimateFee', {}, ({ body }) => withdrawals.estimateFee(body));
  defineEndpoint(app, 'withdrawCreate', {}, ({ auth, body }) => withdrawals.create(auth.userId, body));
  defineEndpoint(app, 'withdrawConfirm', {}, ({ auth, body }) => withdrawals.confirm(auth.userId, body));
  defineEndpoint(app, 'withdrawBillDetail', {}, ({ auth, body }) => withdrawals.detail(auth.userId, body));
}
