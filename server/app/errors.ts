import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { numberOutOfRange } from '../platform/db/errors.js';
import { ApiError, errorBody, HtmlError, invalidRequest, routeNotFound, type AjvError } from '../platform/errors.js';
import { everyError } from '../platform/validation.js';

/** The error code each failed request was answered with, for its log line (server/app/request-log.ts). */
const answeredCodes = new WeakMap<FastifyRequest, string>();
export const answeredErrorCode = (request: FastifyRequest) => answeredCodes.get(request);

/**
 * Answers `{statusCode, message, error, code, requestId}` (and `errors`, each invalid field of a
 * 400; `checks`, a failed readiness check's findings): the one error shape of the API (with the
 * error's headers); `requestId` is the request's id, as its `X-Request-Id` header says.
 */
function sendError(reply: FastifyReply, error: ApiError) {
  reply.headers(error.headers);
  // Also here: the router's own errors (a bad URL) are sent without the hooks that set it on other answers.
  reply.header('x-request-id', reply.request.id);
  if (error.code) answeredCodes.set(reply.request, error.code);
  return reply.code(error.statusCode).type('application/json')
    .send({ ...errorBody(error.statusCode, error.message, error.code, error.errors, error.details), requestId: reply.request.id });
}

/** A server-side disconnect (admin shutdown, crash) or a dropped socket: PostgreSQL classes 57P and 08. */
function lostDatabaseConnection(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (/^57P0[123]$/.test(code) || /^08/.test(code))) return true;
  return /Connection terminated|Client has encountered a connection error|connection is closed/i.test(error.message);
}

/** Fastify's own 4xx errors (reading a body), in our words and codes. */
const FASTIFY_ERRORS: Record<string, (request: FastifyRequest) => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (request) => new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type ${request.headers['content-type'] ?? '(none)'} is not accepted here`),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ApiError(400, 'INVALID_JSON', 'The body is not valid JSON'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ApiError(400, 'INVALID_JSON', 'The body is empty but Content-Type is application/json'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ApiError(400, 'INVALID_CONTENT_LENGTH', 'Content-Length does not match the body'),
};

/** A 4xx Fastify raised while reading a request, as the API answers it: 413 and 415 as such, any other a 400. */
export function fastifyClientError(error: FastifyError, request: FastifyRequest): ApiError {
  const known = FASTIFY_ERRORS[error.code]?.(request);
  if (known) return known;
  if (error.statusCode === 413) return new ApiError(413, 'PAYLOAD_TOO_LARGE', error.message);
  if (error.statusCode === 415) return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', error.message);
  return new ApiError(400, 'BAD_REQUEST', error.message);
}

/** Longest path parameter routed (ids are 36 characters; numbers and slugs far less): past it, 414. */
export const MAX_PARAM_LENGTH = 100;

/** A URL as an error message may quote it: the path only, cut short (an attacker's URL can be megabytes). */
const quotedPath = (url: string) => {
  const path = url.split('?')[0];
  return path.length > 120 ? `${path.slice(0, 120)}...` : path;
};

/**
 * Errors Fastify's router raises before any route (a path parameter too long, a URL that is not
 * valid), in the one error shape instead of Fastify's own.
 */
export function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendError(reply, new ApiError(414, 'URI_TOO_LONG', `A path parameter of ${quotedPath(request.url)} is longer than ${MAX_PARAM_LENGTH} characters`));
  }
  if (error.code === 'FST_ERR_BAD_URL') return sendError(reply, new ApiError(400, 'BAD_URL', `${quotedPath(request.url)} is not a valid URL`));
  return handleError(error, request, reply);
}

/** Maps every failure to the error shape; 5xx details stay in the log. */
function handleError(error: FastifyError | ApiError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HtmlError) {
    reply.headers(error.headers);
    return reply.code(error.statusCode).type('text/html; charset=utf-8').send(error.html);
  }
  if (error instanceof ApiError) return sendError(reply, error);
  const fastifyError = error as FastifyError;
  if (fastifyError.validation?.length) {
    const context = fastifyError.validationContext === 'querystring' ? 'query' : fastifyError.validationContext ?? 'request';
    const first = fastifyError.validation as AjvError[];
    return sendError(reply, invalidRequest(context, first, everyError(first)));
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) return sendError(reply, fastifyClientError(fastifyError, request));
  if (numberOutOfRange(error)) {
    // The contract's maximums keep inputs within the columns; a product of two (an amount at an
    // exchange rate) can still overflow one. Nothing was written: the transaction rolled back.
    // A 4xx: logged without its stack, by SQLSTATE (the database's message may quote the value).
    request.log.warn({ sqlState: (error as { code?: unknown }).code }, 'number out of range');
    return sendError(reply, new ApiError(400, 'NUMBER_OUT_OF_RANGE', 'A number in the request is too large to be stored (an amount or its converted amount); nothing was saved'));
  }
  if (lostDatabaseConnection(error)) {
    // The transaction died with its connection, so nothing was written: the caller may retry.
    request.log.warn({ err: error }, 'database connection lost');
    return sendError(reply, new ApiError(503, 'SERVICE_UNAVAILABLE',
      'The database connection was lost and nothing was saved; retry the request (with the same Idempotency-Key)', { 'retry-after': '1' }));
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendError(reply, new ApiError(500, 'INTERNAL_ERROR', 'Internal Server Error'));
}

/** Every error, anywhere (validation, security, handlers, unknown routes), in the one error shape. */
export const errorHandling = fp(async (app) => {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => sendError(reply, routeNotFound(request.method, quotedPath(request.url))));
}, { name: 'coverline-errors', fastify: '5.x' });
