/** The seller's sales dashboard call (product §29). Thin: parse, call the service, answer. */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { SalesService } from './sales.service';

export function salesRoutes(app: FastifyInstance, sales: SalesService) {
  defineEndpoint(app, 'mySalesDashboard', {}, ({ auth, body }) => sales.dashboard(auth.userId, body.days));
}
