import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { UNMATCHED, type RequestTally } from '../platform/observability/metrics.js';
import { refusedLimit } from '../platform/rate-limit.js';
import { operationIdOf } from './request-log.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's statement count while metrics are on (null when off); `open` until it is answered or aborted. */
    metricsTally: (RequestTally & { open: boolean }) | null;
  }
}

/**
 * The metrics' hooks (server/platform/observability/metrics.ts), on every request including those
 * no route matches: in flight from `onRequest` to its answer (or abort), counted and timed by
 * operationId in `onResponse`, and a 429's rate limit named in `onError`. The statements the
 * request's handler sends are counted by the database view routes.ts gives it (`callDatabase`),
 * into the request's tally: no AsyncLocalStorage, which would cost every request about a tenth of
 * its throughput (measured with `npm run bench -- --cases observability`). With metrics off (no
 * METRICS_TOKEN) none is added, so requests pay nothing for them.
 */
export const observability = fp(async (app) => {
  const { metrics } = app.services;
  if (!metrics) return;
  app.decorateRequest('metricsTally', null);
  const ended = (request: FastifyRequest) => {
    const tally = request.metricsTally;
    if (tally?.open) {
      tally.open = false;
      metrics.requestEnded();
    }
    return tally;
  };
  app.addHook('onRequest', (request, _reply, done) => {
    const tally = { statements: 0, open: true };
    request.metricsTally = tally;
    metrics.requestStarted();
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    ended(request);
    done();
  });
  app.addHook('onError', (_request, _reply, error, done) => {
    const limit = refusedLimit(error);
    if (limit) metrics.rateLimited(limit);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const tally = ended(request);
    const operation = operationIdOf(request) ?? UNMATCHED;
    metrics.observe({ operation, method: request.method, statusCode: reply.statusCode, seconds: reply.elapsedTime / 1000, statements: tally?.statements ?? 0 });
    done();
  });
}, { name: 'coverline-observability', fastify: '5.x', dependencies: ['coverline-services'] });
