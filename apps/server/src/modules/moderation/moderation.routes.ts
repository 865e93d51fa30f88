/** `collection/report` (product §27): rate limited per signed-in user, shared across instances with REDIS_URL. */
import { REPORTS_PER_USER_PER_HOUR } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import { tokenFrom } from '../../plugins/auth';
import type { ModerationService } from './moderation.service';

export function moderationRoutes(app: FastifyInstance, moderation: ModerationService) {
  defineEndpoint(
    app,
    'collectionReport',
    {
      // Counted per signed-in user however the Authorization header is spelled (per IP without a live session).
      rateLimit: {
        max: REPORTS_PER_USER_PER_HOUR,
        timeWindow: 3_600_000,
        keyGenerator: async (req) => {
          const token = tokenFrom(req);
          const session = token ? await app.ctx.services.accounts.resolveSession(token) : null;
          return session ? `report:${session.userId}` : `report-ip:${req.ip}`;
        },
      },
    },
    ({ auth, body }) => moderation.report(auth.userId, body),
  );
}
