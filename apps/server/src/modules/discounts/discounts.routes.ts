/** Discount code calls (product §28): discount/create, discount/list, discount/disable, discount/preview. */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { DiscountsService } from './discounts.service';

/** discount/preview calls per IP per minute: enough for a buyer typing, too few to guess codes. */
export const DISCOUNT_PREVIEW_PER_MINUTE = 60;

/**
 * collection/buy calls that carry a discount code, per IP per minute: the same bound as
 * discount/preview, so a code cannot be guessed through the buy instead (docs/abuse.md). Buys
 * without a code are neither counted nor limited here.
 */
export const DISCOUNT_BUY_PER_MINUTE = 60;

export function discountsRoutes(app: FastifyInstance, discounts: DiscountsService) {
  defineEndpoint(app, 'discountCreate', {}, ({ auth, body }) => discounts.create(auth.userId, body));
  defineEndpoint(app, 'discountList', {}, ({ auth, body }) => discounts.list(auth.userId, body.paginator));
  defineEndpoint(app, 'discountDisable', {}, ({ auth, body }) => discounts.disable(auth.userId, body.discount_id));
  defineEndpoint(
    app,
    'discountPreview',
    { rateLimit: { max: DISCOUNT_PREVIEW_PER_MINUTE, timeWindow: 60_000, keyGenerator: (req) => `discount-preview:${req.ip}` } },
    ({ auth, body }) => discounts.preview(auth?.userId ?? null, body.collection_id, body.code),
  );
}
