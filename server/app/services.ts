import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import { systemClock, type Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { Services } from '../platform/context.js';
import { CredentialCache } from '../platform/auth/credential-cache.js';
import type { ChangeFeed, Db, PoolStats } from '../platform/db/database.js';
import { createMetrics } from '../platform/observability/metrics.js';
import { outboxNotifier, type Notifier } from '../platform/notifier.js';
import { messageTransports } from '../platform/messages/transports.js';
import type { MessageTransports } from '../platform/messages/transport.js';
import { API_PREFIX, documentForReaders } from '../platform/openapi.js';
import { sandboxProvider, type PaymentProvider } from '../platform/payments/provider.js';
import { createStorage } from '../platform/storage/index.js';
import { Lifecycle } from '../platform/lifecycle.js';
import type { EventReactions } from '../platform/events.js';
import type { Tracing } from '../platform/observability/tracing.js';
import { domainReactions } from '../domain/reactions.js';
import { domainSnapshots } from '../domain/snapshots.js';
import type { AccessTokenClaims } from './security.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The services handlers get (database, clock, notifier, payment provider...), for background jobs. */
    services: Services;
  }
}

export interface ServiceOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  notifier?: Notifier;
  /** How messages leave; from the configuration unless given (tests give an in-process SMTP server's). */
  messages?: MessageTransports;
  /** The payment provider; the sandbox one unless given. */
  payments?: PaymentProvider;
  /**
   * The database's change notices (`DatabaseHandle.changes`): with them, what authenticating a
   * request reads is kept between requests (CredentialCache); without, it is read every time.
   */
  changes?: ChangeFeed;
  /** What follows each business event; the domain's own (server/domain/reactions.ts) unless given. */
  reactions?: EventReactions;
  /** The database pool's connections now (`DatabaseHandle.poolStats`), for the metrics; without it they have no pool gauges. */
  poolStats?: () => PoolStats;
  /** Traces, when on (server/platform/observability/tracing.ts): the background jobs' spans. */
  tracing?: Tracing;
}

/** Everything with side effects that handlers and jobs are given, made once per app; tests swap parts. */
export const services = fp(async (app, options: ServiceOptions) => {
  const { config, db } = options;
  /**
   * An access token of its own id (`jti`, which logout revokes), expiring after the configured
   * time; `sid` names its session (refresh token family), which logout and a reuse end whole.
   */
  const sign = ({ sid, ...claims }: Omit<AccessTokenClaims, 'jti' | 'iat' | 'exp'>) => {
    const token = app.jwt.sign({ ...claims, ...(sid ? { sid } : {}), jti: randomUUID() });
    const { exp } = app.jwt.decode<{ exp: number }>(token)!;
    return { token, expiresAt: new Date(exp * 1000) };
  };
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const credentials = new CredentialCache();
  await credentials.start(options.changes);
  app.addHook('onClose', () => credentials.close());
  // Metrics only with a METRICS_TOKEN to read them: otherwise nothing is counted and no hook runs.
  const metrics = config.metricsToken ? createMetrics({ db, clock, credentials, poolStats: options.poolStats }) : undefined;
  if (metrics) app.addHook('onClose', async () => metrics.close());
  const messages = options.messages ?? messageTransports(config.messages, (line) => app.log.info(line));
  // Pooled SMTP connections close with the app.
  app.addHook('onClose', () => messages.email.close?.());
  const made: Services = {
    config,
    db,
    clock,
    notifier: options.notifier ?? outboxNotifier(clock),
    messages,
    storage: createStorage(config),
    payments: options.payments ?? sandboxProvider(config),
    async deliverWebhook(provider, { headers, body }) {
      const answer = await app.inject({ method: 'POST', url: `${API_PREFIX}/webhooks/payments/${encodeURIComponent(provider)}`, headers, payload: body });
      if (answer.statusCode >= 300) app.log.warn({ provider, statusCode: answer.statusCode, answer: answer.body }, 'payment webhook refused');
      return { statusCode: answer.statusCode, body: answer.body };
    },
    // Made on the first GET /openapi.json, not at start: a copy of the whole contract held by every
    // instance at rest for a route few callers use.
    servedContract: () => documentForReaders(started),
    credentials,
    lifecycle: new Lifecycle(),
    reactions: options.reactions ?? domainReactions,
    eventSnapshots: domainSnapshots,
    metrics,
    tracing: options.tracing,
    signAccessToken: async ({ tenantId, clientId, sessionVersion, sessionId }) =>
      sign({ sub: clientId, tid: tenantId, kind: 'client', sv: sessionVersion, sid: sessionId }),
    signStaffAccessToken: async ({ tenantId, staffId, sessionVersion, sessionId }) =>
      sign({ sub: staffId, tid: tenantId, kind: 'staff', sv: sessionVersion, sid: sessionId }),
  };
  app.decorate('services', made);
}, { name: 'coverline-services', fastify: '5.x', dependencies: ['coverline-security'] });
