/** Personal access token calls (ADR 0058): token/create, token/list, token/revoke; a signed-in session only. */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { TokensService } from './tokens.service';

export function tokensRoutes(app: FastifyInstance, tokens: TokensService): void {
  defineEndpoint(app, 'tokenCreate', {}, ({ auth, body }) => tokens.create(auth.userId, body));
  defineEndpoint(app, 'tokenList', {}, ({ auth }) => tokens.list(auth.userId));
  defineEndpoint(app, 'tokenRevoke', {}, ({ auth, body }) => tokens.revoke(auth.userId, body.token_id));
}
