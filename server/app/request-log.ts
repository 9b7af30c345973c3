import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import pino from 'pino';
import type { Tracing } from '../platform/observability/tracing.js';
import { operationIndex } from '../platform/openapi.js';
import { answeredErrorCode } from './errors.js';

/** The header a request's id comes in (a proxy's or the caller's correlation id) and goes back in, on every answer. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * A request id taken as sent: 8 to 128 letters, digits, `.`, `_`, `:` or `-` (UUIDs, ULIDs,
 * proxies' ids such as `Root=1-...` minus the `=`), nothing a log line or a header could be broken
 * with. Anything else is replaced by a new UUID.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/** What a request arriving logs, at debug level (the server-process test waits for it). */
export const REQUEST_RECEIVED = 'request received';
/** The one line each request logs once answered. */
export const REQUEST_COMPLETED = 'request completed';

/**
 * Where the process's log lines go (standard output unless another open file is given): written
 * off the request path, a line queued and written by the next turn of the event loop (several at
 * once under load), not a write system call inside each request. pino writes out what is still
 * queued when the process exits, `process.exit` included. A file descriptor, not a path: a path is
 * opened asynchronously, and an exit before it is open would throw instead of flushing.
 */
export const logDestination = (fd = 1) => pino.destination({ dest: fd, sync: false });

/** Fastify's `genReqId`: the request's well-formed `X-Request-Id`, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && REQUEST_ID_PATTERN.test(sent) ? sent : randomUUID();
}

/** The operationId of the route a request matched (undefined for a path the API does not have). */
export const operationIdOf = (request: FastifyRequest) => (request.routeOptions.config as { operationId?: string } | undefined)?.operationId;

/**
 * Who made a call, as logs and traces name them: the tenant and the actor the security hook found
 * (`anonymous` with an Api-Key alone), `operator` for the platform operator's calls it let through, `none` when no
 * caller was established (a missing or wrong credential, an unknown route). Ids only: never a
 * credential.
 */
function callerOf(request: FastifyRequest, statusCode: number, operatorCalls: ReadonlySet<string>): { tenantId?: string; actorKind: string; actorId?: string } {
  const caller = request.caller;
  if (!caller) {
    const operationId = operationIdOf(request);
    return { actorKind: operationId && operatorCalls.has(operationId) && statusCode < 400 ? 'operator' : 'none' };
  }
  const { actor, tenant } = caller;
  const actorId = actor.kind === 'client' ? actor.clientId : actor.kind === 'staff' ? actor.staffId : undefined;
  return { tenantId: tenant.id, actorKind: actor.kind, ...(actorId ? { actorId } : {}) };
}

/**
 * Request ids, one log line per request and the request's span attributes. Fastify's own request
 * logging is off (`disableRequestLogging`): its lines carry the URL, query string included. Each
 * request logs `request received` at debug level when it arrives and `request completed` once
 * answered, with its id (`requestId`, on every line the request logs), operationId, method, route
 * template, status, duration, tenant, actor kind and id, and the error code of a failure; never a
 * header, a query string, a body or a credential. A 5xx is also logged with its error and stack
 * (server/app/errors.ts); a 4xx is its code alone.
 */
export const requestLog = fp(async (app, { tracing }: { tracing?: Tracing }) => {
  const operatorCalls = new Set([...operationIndex().values()]
    .filter((meta) => meta.security.length > 0 && meta.security.every((requirement) => 'operatorKey' in requirement))
    .map((meta) => meta.operationId));

  // Callback hooks, not async ones: an async hook costs every request a promise and a turn of the microtask queue.
  app.addHook('onRequest', (request, _reply, done) => {
    request.log.debug({ operationId: operationIdOf(request), method: request.method }, REQUEST_RECEIVED);
    done();
  });

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (tracing) {
      const { tenantId, actorKind, actorId } = callerOf(request, reply.statusCode, operatorCalls);
      tracing.annotate(request, {
        'coverline.actor.kind': actorKind,
        ...(tenantId ? { 'coverline.tenant.id': tenantId } : {}),
        // A client's or staff member's id: a random UUID, no credential, the same as the log line names.
        ...(actorId ? { 'enduser.id': actorId } : {}),
      });
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const errorCode = answeredErrorCode(request);
    request.log.info({
      operationId: operationIdOf(request),
      method: request.method,
      // The route's template (`/api/v1/client/policies/:id`), never the URL with its query string.
      route: request.routeOptions.url,
      statusCode: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      ...callerOf(request, reply.statusCode, operatorCalls),
      ...(errorCode ? { errorCode } : {}),
    }, REQUEST_COMPLETED);
    done();
  });
}, { name: 'coverline-request-log', fastify: '5.x' });
