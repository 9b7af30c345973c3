import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../platform/errors.js';
import { operationIdOf } from './request-log.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Begins the shutdown (main.ts on SIGTERM/SIGINT): readiness answers 503 at once and every new
     * request 503 SHUTTING_DOWN with Retry-After, while the requests in flight go on.
     */
    beginShutdown(reason: string): void;
    /** Resolves once no request admitted before the shutdown is still in flight. */
    requestsFinished(): Promise<void>;
    /** The requests in flight (method and route template), for the log when a shutdown takes too long. */
    requestsInFlight(): string[];
  }
}

/** How soon a caller refused during a shutdown may retry (a load balancer sends it to another instance). */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 1;

/** Still answered during a shutdown: liveness, and readiness, which says it is shutting down. */
const ALWAYS_ANSWERED = new Set(['getHealth', 'getReadiness']);

/**
 * The shutdown gate: counts the requests in flight and, once the shutdown began, refuses new ones
 * before anything else reads them (Fastify's own return503OnClosing sends no Retry-After, and
 * only starts when the server closes, which would refuse new connections rather than answer them).
 */
export const shutdownGate = fp(async (app) => {
  const { lifecycle } = app.services;
  const inFlight = new Set<FastifyRequest>();
  let finished: (() => void) | undefined;
  const settle = (request: FastifyRequest) => {
    inFlight.delete(request);
    if (inFlight.size === 0) finished?.();
  };

  app.decorate('beginShutdown', (reason: string) => lifecycle.beginShutdown(reason));
  app.decorate('requestsFinished', () => (inFlight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => { finished = resolve; })));
  // The route's template, never the URL as sent: a query string may hold what a log must not.
  app.decorate('requestsInFlight', () => [...inFlight].map((request) => `${request.method} ${request.routeOptions.url ?? 'unmatched'}`));

  // Callback hooks: an async one costs every request a promise and a turn of the microtask queue.
  app.addHook('onRequest', (request, _reply, done) => {
    if (lifecycle.shuttingDown && !ALWAYS_ANSWERED.has(operationIdOf(request) ?? '')) {
      done(new ApiError(503, 'SHUTTING_DOWN', 'This instance is shutting down and takes no new request; retry (another instance will answer)',
        { 'retry-after': String(SHUTDOWN_RETRY_AFTER_SECONDS) }));
      return;
    }
    inFlight.add(request);
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => { settle(request); done(); });
  app.addHook('onRequestAbort', (request, done) => { settle(request); done(); });
}, { name: 'coverline-shutdown', fastify: '5.x', dependencies: ['coverline-services'] });
