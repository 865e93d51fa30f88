/** Deposit routes (SPEC 7: deposit/min-amount, deposit, deposit/bill/detail). Thin: parse, call the service, answer. */
import {
  DepositBillDetailDataSchema,
  DepositBillDetailRequestSchema,
  DepositDataSchema,
  DepositMinAmountDataSchema,
  DepositMinAmountRequestSchema,
  DepositRequestSchema,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineRoute, ucPath } from '../../lib/route';
import type { DepositsService } from './deposits.service';

const tags = ['top-up'];

export function depositRoutes(app: FastifyInstance, deposits: DepositsService) {
  defineRoute(
    app,
    {
      path: ucPath('/deposit/min-amount'),
      body: DepositMinAmountRequestSchema,
      data: DepositMinAmountDataSchema,
      auth: 'optional',
      tags,
      summary: 'Minimum top-up in a currency (points, crypto, USD); never cached',
    },
    async ({ body, reply }) => {
      reply.header('Cache-Control', 'no-store');
      return deposits.minAmount(body.currency_from);
    },
  );
  defineRoute(
    app,
    {
      path: ucPath('/deposit'),
      body: DepositRequestSchema,
      data: DepositDataSchema,
      auth: 'required',
      tags,
      summary: 'Create a top-up bill',
    },
    ({ auth, body }) => deposits.create(auth.userId, body),
  );
  defineRoute(
    app,
    {
      path: ucPath('/deposit/bill/detail'),
      body: DepositBillDetailRequestSchema,
      data: DepositBillDetailDataSchema,
      auth: 'required',
      tags,
      summary: "One of the caller's top-up bills",
    },
    ({ auth, body }) => deposits.detail(auth.userId, body),
  );
}
