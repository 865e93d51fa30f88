/** Seller events and webhook routes (product §23). Thin: parse, call the service, answer. */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { EventsService } from './events.service';

export function eventsRoutes(app: FastifyInstance, events: EventsService) {
  defineEndpoint(app, 'eventsList', {}, ({ auth, body }) => events.list(auth.userId, body));
  defineEndpoint(app, 'webhookGet', {}, ({ auth }) => events.getEndpoint(auth.userId));
  defineEndpoint(app, 'webhookSet', {}, ({ auth, body }) => events.setEndpoint(auth.userId, body.url));
  defineEndpoint(app, 'webhookSecretRotate', {}, ({ auth }) => events.rotateSecret(auth.userId));
  defineEndpoint(app, 'webhookDeliveries', {}, ({ auth, body }) => events.deliveries(auth.userId, body.paginator));
  defineEndpoint(app, 'webhookRedeliver', {}, ({ auth, body }) => events.redeliver(auth.userId, body.event_id));
}
