/**
 * `collection/report` (product §27): rate limited per signed-in user, shared across instances with
 * REDIS_URL. Counted after authentication and body validation (a malformed body is refused with 400
 * and spends nothing), so the key is always the caller's user id.
 */
import { REPORTS_PER_USER_PER_HOUR } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { ModerationService } from './moderation.service';

export function moderationRoutes(app: FastifyInstance, moderation: ModerationService) {
  defineEndpoint(
    app,
    'collectionReport',
    {
      rateLimit: {
        max: REPORTS_PER_USER_PER_HOUR,
        timeWindow: 3_600_000,
        hook: 'preHandler',
        keyGenerator: (req) => (req.auth ? `report:${req.auth.userId}` : `report-ip:${req.ip}`),
      },
    },
    ({ auth, body }) => moderation.report(auth.userId, body),
  );
}
