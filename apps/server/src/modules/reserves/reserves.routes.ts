/** Proof-of-liabilities routes (product §22). Thin: parse (contract schemas), call the service, answer. */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { ReservesService } from './reserves.service';

export function reservesRoutes(app: FastifyInstance, reserves: ReservesService) {
  defineEndpoint(app, 'reservesLatest', {}, () => reserves.latest());
  defineEndpoint(app, 'reservesProof', {}, ({ auth }) => reserves.proof(auth.userId));
}
