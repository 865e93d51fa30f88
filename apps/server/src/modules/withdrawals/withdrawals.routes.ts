/** Withdraw routes (SPEC 7: withdraw/estimate/fee, create, confirm, bill/detail). Thin: parse, call the service, answer. */
import {
  WithdrawBillDetailDataSchema,
  WithdrawBillDetailRequestSchema,
  WithdrawConfirmDataSchema,
  WithdrawConfirmRequestSchema,
  WithdrawCreateDataSchema,
  WithdrawCreateRequestSchema,
  WithdrawEstimateFeeDataSchema,
  WithdrawEstimateFeeRequestSchema,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineRoute, ucPath } from '../../lib/route';
import type { WithdrawalsService } from './withdrawals.service';

const tags = ['cash-out'];

export function withdrawalRoutes(app: FastifyInstance, withdrawals: WithdrawalsService) {
  defineRoute(
    app,
    {
      path: ucPath('/withdraw/estimate/fee'),
      body: WithdrawEstimateFeeRequestSchema,
      data: WithdrawEstimateFeeDataSchema,
      auth: 'required',
      tags,
      summary: 'Network fee of a cash-out',
    },
    ({ body }) => withdrawals.estimateFee(body),
  );
  defineRoute(
    app,
    {
      path: ucPath('/withdraw/create'),
      body: WithdrawCreateRequestSchema,
      data: WithdrawCreateDataSchema,
      auth: 'required',
      tags,
      summary: 'Create a cash-out bill (confirmed with the password next)',
    },
    ({ auth, body }) => withdrawals.create(auth.userId, body),
  );
  defineRoute(
    app,
    {
      path: ucPath('/withdraw/confirm'),
      body: WithdrawConfirmRequestSchema,
      data: WithdrawConfirmDataSchema,
      auth: 'required',
      tags,
      summary: 'Confirm a cash-out with the login password',
    },
    ({ auth, body }) => withdrawals.confirm(auth.userId, body),
  );
  defineRoute(
    app,
    {
      path: ucPath('/withdraw/bill/detail'),
      body: WithdrawBillDetailRequestSchema,
      data: WithdrawBillDetailDataSchema,
      auth: 'required',
      tags,
      summary: "One of the caller's cash-out bills",
    },
    ({ auth, body }) => withdrawals.detail(auth.userId, body),
  );
}
