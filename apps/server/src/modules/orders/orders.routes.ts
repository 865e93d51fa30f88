/**
 * Purchase calls (product §16-§17): collection/buy, account/order/pay, my/orders, my/purchased/collections;
 * refunds (product §25): account/order/refund, account/order/refund/request, my/sales.
 */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import { tokenFrom } from '../../plugins/auth';
import { DISCOUNT_BUY_PER_MINUTE } from '../discounts/discounts.routes';
import type { OrdersService } from './orders.service';

export function ordersRoutes(app: FastifyInstance, orders: OrdersService) {
  defineEndpoint(
    app,
    'collectionBuy',
    {
      // A buy with a discount code answers whether the code exists, as discount/preview does: the
      // same budget per IP. Counted once the body is parsed (preHandler); buys without a code pass.
      rateLimit: {
        max: DISCOUNT_BUY_PER_MINUTE,
        timeWindow: 60_000,
        hook: 'preHandler',
        keyGenerator: (req) => `discount-buy:${req.ip}`,
        allowList: (req) => !(req.body as { code?: unknown } | undefined)?.code,
      },
    },
    ({ auth, body }) => orders.buy(auth.userId, body.collection_id, body.code),
  );
  defineEndpoint(
    app,
    'orderPay',
    {
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
    ({ auth, body }) => orders.pay(auth, body.order_id, { password: body.password, code: body.code, amount: body.amount }),
  );
  defineEndpoint(app, 'orderReport', {}, ({ auth, body }) => orders.report(auth.userId, body.order_id, body.details));
  defineEndpoint(app, 'myOrders', {}, ({ auth, body }) => orders.mine(auth.userId, body.paginator));
  defineEndpoint(app, 'myPurchasedCollections', {}, ({ auth, body }) => orders.purchased(auth.userId, body.paginator));
  defineEndpoint(app, 'orderRefund', {}, ({ auth, body }) => orders.refund(auth.userId, body.order_id, body.reason));
  defineEndpoint(app, 'orderRefundRequest', {}, ({ auth, body }) =>
    orders.requestRefund(auth.userId, body.order_id, body.reason),
  );
  defineEndpoint(app, 'mySales', {}, ({ auth, body }) => orders.sales(auth.userId, body.paginator, body.pending_requests));
}
