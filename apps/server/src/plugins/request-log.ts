/**
 * One log line per request (issue 42, "Request logging halves the server"). Fastify writes two
 * by default ("incoming request" and "request completed", each serialising the whole request); this
 * log controller (Fastify's `logController` option, set in app.ts) drops the first and writes the
 * second once, small:
 *
 *   {"level":30,"reqId":"req-1","req":{"method":"POST","url":"/api/...","host":"...","remoteAddress":"...",
 *    "remotePort":1234},"res":{"statusCode":200},"route":"/api/...","responseTime":1.8,"msg":"request completed"}
 *
 * `responseTime` is in ms (reply.elapsedTime, two decimals). The line keeps `req.url` (operators
 * and the account logs test search by it) and adds the matched route pattern; headers and bodies are
 * never logged, so tokens and passwords cannot reach it (product §19). An answer with an error is
 * logged at `error` with the error, as Fastify does. Fastify's other lines (errors of the default
 * handler, route not found, stream errors) are kept as they are.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export class RequestLogController extends LogController {
  override incomingRequest(): void {
    // Nothing: the completed line carries the request.
  }

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    // `req` and `res` go through Fastify's own serializers (method, url, host, remoteAddress,
    // remotePort; statusCode), so the line has the shape log tools already parse.
    const line = {
      req: request,
      res: reply,
      route: request.routeOptions.url,
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
