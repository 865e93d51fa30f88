/** Record routes (product §7 `record/list`). Thin: parse (contract schemas), call the service, answer. */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { RecordsService } from './records.service';

export function recordRoutes(app: FastifyInstance, records: RecordsService) {
  defineEndpoint(app, 'recordList', {}, ({ auth, body }) => records.list(auth.userId, body));
}
