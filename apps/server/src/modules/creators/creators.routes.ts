/** The public creator page call (`creator/detail`). Thin: parse, call the service, answer. */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { CreatorsService } from './creators.service';

export function creatorsRoutes(app: FastifyInstance, creators: CreatorsService) {
  defineEndpoint(app, 'creatorDetail', {}, ({ body }) => creators.detail(body.user_id, body.paginator));
}
