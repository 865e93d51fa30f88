/** Discount code calls (product §28): discount/create, discount/list, discount/disable, discount/preview. */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { DiscountsService } from './discounts.service';

export function discountsRoutes(app: FastifyInstance, discounts: DiscountsService) {
  defineEndpoint(app, 'discountCreate', {}, ({ auth, body }) => discounts.create(auth.userId, body));
  defineEndpoint(app, 'discountList', {}, ({ auth, body }) => discounts.list(auth.userId, body.paginator));
  defineEndpoint(app, 'discountDisable', {}, ({ auth, body }) => discounts.disable(auth.userId, body.discount_id));
  defineEndpoint(app, 'discountPreview', {}, ({ auth, body }) =>
    discounts.preview(auth?.userId ?? null, body.collection_id, body.code),
  );
}
