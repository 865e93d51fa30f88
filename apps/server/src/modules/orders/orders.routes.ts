/** Purchase calls (DESIGN 7-8): collection/buy, account/order/pay, my/orders, my/purchased/collections. */
import {
  CollectionBuyDataSchema,
  CollectionBuyRequestSchema,
  MyOrdersDataSchema,
  MyOrdersRequestSchema,
  MyPurchasedCollectionsDataSchema,
  MyPurchasedCollectionsRequestSchema,
  OrderPayDataSchema,
  OrderPayRequestSchema,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineRoute, slPath, ucPath } from '../../lib/route';
import { tokenFrom } from '../../plugins/auth';
import type { OrdersService } from './orders.service';

const tags = ['orders'];

export function ordersRoutes(app: FastifyInstance, orders: OrdersService) {
  defineRoute(
    app,
    {
      path: slPath('/collection/buy'),
      body: CollectionBuyRequestSchema,
      data: CollectionBuyDataSchema,
      auth: 'required',
      tags,
      summary: "The caller's order for a collection",
    },
    ({ auth, body }) => orders.buy(auth.userId, body.collection_id),
  );
  defineRoute(
    app,
    {
      path: ucPath('/order/pay'),
      body: OrderPayRequestSchema,
      data: OrderPayDataSchema,
      auth: 'required',
      tags,
      summary: 'Pay an order (one transaction: ledger, order, records, counters)',
      // Counted per signed-in user, however the Authorization header is spelled (per IP without a
      // live session); wrong passwords also spend the user's shared password budget (account/password-budget.ts).
      rateLimit: {
        max: 120,
        timeWindow: 60_000,
        keyGenerator: async (req) => {
          const token = tokenFrom(req);
          const session = token ? await app.ctx.services.accounts.resolveSession(token) : null;
          return session ? `pay:${session.userId}` : `pay-ip:${req.ip}`;
        },
      },
    },
    ({ auth, body }) => orders.pay(auth.userId, body.order_id, body.password),
  );
  defineRoute(
    app,
    {
      path: slPath('/my/orders'),
      body: MyOrdersRequestSchema,
      data: MyOrdersDataSchema,
      auth: 'required',
      tags,
      summary: "The caller's orders, newest first",
    },
    ({ auth, body }) => orders.mine(auth.userId, body.paginator),
  );
  defineRoute(
    app,
    {
      path: slPath('/my/purchased/collections'),
      body: MyPurchasedCollectionsRequestSchema,
      data: MyPurchasedCollectionsDataSchema,
      auth: 'required',
      tags,
      summary: 'Collections the caller bought',
    },
    ({ auth, body }) => orders.purchased(auth.userId, body.paginator),
  );
}
