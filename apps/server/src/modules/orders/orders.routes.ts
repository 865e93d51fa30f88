/**
 * The orders module's calls, each handed to the service that owns it:
 * - purchase.service.ts (product §16-§17): collection/buy, account/order/pay;
 * - refunds.service.ts (product §25, "This wasn't me"): account/order/refund,
 *   account/order/refund/request, account/order/report;
 * - listings.service.ts: my/orders, my/purchased/collections, my/sales.
 * Clearance has no call of its own here (its worker is built in services.ts; the sandbox's shortcut is
 * payments.routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import { tokenFrom } from '../../plugins/auth';
import { DISCOUNT_BUY_PER_MINUTE } from '../discounts/discounts.routes';
import type { ListingsService } from './listings.service';
import type { PurchaseService } from './purchase.service';
import type { RefundsService } from './refunds.service';

/** The services the orders module's routes call (a slice of `app.ctx.services`). */
export interface OrdersRouteServices {
  purchases: PurchaseService;
  refunds: RefundsService;
  orderListings: ListingsService;
}

export function ordersRoutes(app: FastifyInstance, { purchases, refunds, orderListings }: OrdersRouteServices) {
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
    ({ auth, body }) => purchases.buy(auth.userId, body.collection_id, body.code),
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
          const session = token ? await app.ctx.services.sessions.resolveSession(token) : null;
          return session ? `pay:${session.userId}` : `pay-ip:${req.ip}`;
        },
      },
    },
    ({ auth, body }) => purchases.pay(auth, body.order_id, { password: body.password, code: body.code, amount: body.amount }),
  );
  defineEndpoint(app, 'orderReport', {}, ({ auth, body }) => refunds.report(auth.userId, body.order_id, body.details));
  defineEndpoint(app, 'myOrders', {}, ({ auth, body }) => orderListings.mine(auth.userId, body.paginator));
  defineEndpoint(app, 'myPurchasedCollections', {}, ({ auth, body }) => orderListings.purchased(auth.userId, body.paginator));
  defineEndpoint(app, 'orderRefund', {}, ({ auth, body }) => refunds.refund(auth.userId, body.order_id, body.reason));
  defineEndpoint(app, 'orderRefundRequest', {}, ({ auth, body }) =>
    refunds.requestRefund(auth.userId, body.order_id, body.reason),
  );
  defineEndpoint(app, 'mySales', {}, ({ auth, body }) => orderListings.sales(auth.userId, body.paginator, body.pending_requests));
}
