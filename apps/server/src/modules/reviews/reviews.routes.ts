/** Review calls (product §29). Thin: parse, call the service, answer. */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { ReviewsService } from './reviews.service';

export function reviewsRoutes(app: FastifyInstance, reviews: ReviewsService) {
  defineEndpoint(app, 'reviewUpsert', {}, ({ auth, body }) => reviews.upsert(auth.userId, body));
  defineEndpoint(app, 'reviewList', {}, ({ auth, body }) =>
    reviews.list(auth?.userId ?? null, body.collection_id, body.paginator),
  );
  defineEndpoint(app, 'reviewReply', {}, ({ auth, body }) => reviews.reply(auth.userId, body.review_id, body.text));
  defineEndpoint(app, 'reviewDelete', {}, ({ auth, body }) => reviews.remove(auth.userId, body.review_id));
}
