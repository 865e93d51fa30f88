/** Record routes (SPEC 7 `record/list`). Thin: parse (contract schemas), call the service, answer. */
import { RecordListDataSchema, RecordListRequestSchema } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineRoute, ucPath } from '../../lib/route';
import type { RecordsService } from './records.service';

export function recordRoutes(app: FastifyInstance, records: RecordsService) {
  defineRoute(
    app,
    {
      path: ucPath('/record/list'),
      body: RecordListRequestSchema,
      data: RecordListDataSchema,
      auth: 'required',
      tags: ['records'],
      summary: "The caller's transaction records, newest first",
    },
    ({ auth, body }) => records.list(auth.userId, body),
  );
}
