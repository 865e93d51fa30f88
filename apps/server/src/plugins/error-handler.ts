/**
 * The one global error handler (product §12, STYLE habit 5): every failure leaves as the envelope
 * `{code, msg, reason}` with its HTTP status; internals are logged, never sent.
 */
import { ERROR_TABLE, type ErrorReason } from '@coffer/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';

function send(reply: FastifyReply, reason: ErrorReason, msg: string, data?: unknown) {
  const { code, status } = ERROR_TABLE[reason];
  return reply.status(status).type('application/json').send({ code, msg, reason, ...(data ? { data } : {}) });
}

interface ValidationItem {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: (string | number)[] } };
}

/** "field: message", unless the message already names the field. */
export function validationMessage(items: ValidationItem[]): string {
  const first = items[0];
  if (!first) return 'Invalid request';
  const field = (first.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const message = first.message ?? 'is invalid';
  if (!field) {
    return /expected object/i.test(message) ? 'Request body must be a JSON object' : message;
  }
  const leaf = field.split('.').pop() ?? field;
  return message.toLowerCase().includes(leaf.toLowerCase().replace(/_/g, ' ')) || message.toLowerCase().includes(leaf.toLowerCase())
    ? message
    : `${field}: ${message}`;
}

export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError & { validation?: ValidationItem[] }, req, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) req.log.error({ err: error }, 'app error');
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return send(reply, error.reason, error.message, error.data);
    }
    if (error.validation) {
      return send(reply, 'VALIDATION_FAILED', validationMessage(error.validation), {
        fields: error.validation.map((v) => ({ field: (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.'), message: v.message })),
      });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send(reply, 'VALIDATION_FAILED', 'The request body is not valid JSON');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, 'VALIDATION_FAILED', 'Send the request body as application/json');
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return send(reply, 'VALIDATION_FAILED', 'Invalid Content-Length');
      default:
        break;
    }
    if (error.statusCode === 429) return send(reply, 'RATE_LIMITED', 'Too many attempts. Please try again later.');
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return send(reply, 'VALIDATION_FAILED', 'Invalid request');
    }
    req.log.error({ err: error }, 'unhandled error');
    return send(reply, 'INTERNAL', 'Server error. Please try again later.');
  });
});
