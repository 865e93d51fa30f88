/** Seller events and webhook routes (product §23). Thin: parse, call the service, answer. */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import { tokenFrom } from '../../plugins/auth';
import type { EventsService } from './events.service';

/** `webhook/redeliver` calls one user may make per {@link REDELIVER_WINDOW_MS}. */
export const REDELIVERS_PER_WINDOW = 30;
/** The redeliver limit's fixed window, in milliseconds (10 minutes). */
export const REDELIVER_WINDOW_MS = 10 * 60_000;

export function eventsRoutes(app: FastifyInstance, events: EventsService) {
  defineEndpoint(app, 'eventsList', {}, ({ auth, body }) => events.list(auth.userId, body));
  defineEndpoint(app, 'webhookGet', {}, ({ auth }) => events.getEndpoint(auth.userId));
  defineEndpoint(app, 'webhookSet', {}, ({ auth, body }) => events.setEndpoint(auth.userId, body.url, body.signing));
  defineEndpoint(app, 'webhookSecretRotate', {}, ({ auth }) => events.rotateSecret(auth.userId));
  defineEndpoint(app, 'webhookSigningKeyRotate', {}, ({ auth }) => events.rotateSigningKey(auth.userId));
  defineEndpoint(app, 'webhookDeliveries', {}, ({ auth, body }) => events.deliveries(auth.userId, body.paginator));
  defineEndpoint(
    app,
    'webhookRedeliver',
    {
      // Each redeliver makes Coffer send a request to the seller's URL (docs/abuse.md "Webhook
      // delivery"): counted per signed-in user, however the Authorization header is spelled.
      rateLimit: {
        max: REDELIVERS_PER_WINDOW,
        timeWindow: REDELIVER_WINDOW_MS,
        keyGenerator: async (req) => {
          const token = tokenFrom(req);
          const session = token ? await app.ctx.services.sessions.resolveSession(token) : null;
          return session ? `redeliver:${session.userId}` : `redeliver-ip:${req.ip}`;
        },
      },
    },
    ({ auth, body }) => events.redeliver(auth.userId, body.event_id),
  );
}
