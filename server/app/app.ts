import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { observeStatements } from '../platform/db/transaction-settings.js';
import { startTracing, type InjectedTracerProvider } from '../platform/observability/tracing.js';
import { compileValidator, lazySerializers } from '../platform/validation.js';
import { bodyParsing } from './body.js';
import { errorHandling, frameworkError, MAX_PARAM_LENGTH } from './errors.js';
import { observability } from './observability.js';
import { requestIdOf, requestLog } from './request-log.js';
import { routes } from './routes.js';
import { security } from './security.js';
import { services, type ServiceOptions } from './services.js';
import { shutdownGate } from './shutdown.js';

export interface AppOptions extends Omit<ServiceOptions, 'tracing'> {
  /** Fastify's logger setting (pino's options, a `stream` among them); off unless given. */
  logger?: boolean | object;
  /**
   * Traces to this provider (tests: an in-memory exporter) rather than to `config.otlpEndpoint`'s
   * collector; shut down when the app closes. Neither: no tracing, no OpenTelemetry code loaded.
   */
  tracerProvider?: InjectedTracerProvider;
}

/**
 * The composition root as a plugin: error handling, body parsing, security, the services handlers
 * are given, the metrics' hooks (when on), the shutdown gate, and one route per operation of the contract, in that order.
 */
export const coverline = fp(async (app, options: ServiceOptions) => {
  app.setValidatorCompiler(compileValidator);
  await app.register(requestLog, { tracing: options.tracing });
  await app.register(errorHandling);
  await app.register(bodyParsing, { config: options.config });
  await app.register(security, { config: options.config });
  await app.register(services, options);
  await app.register(observability);
  await app.register(shutdownGate);
  await app.register(routes);
}, { name: 'coverline', fastify: '5.x' });

/** Builds the API: routes, validation and security all come from the bundled contract. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, tracerProvider, ...rest } = options;
  const tracing = await startTracing({ otlpEndpoint: config.otlpEndpoint, tracerProvider });
  const app = Fastify({
    logger: options.logger ?? false,
    // One line per request of our own (server/app/request-log.ts), without the URL's query string.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    // On close, idle keep-alive connections are closed at once rather than holding the close open.
    forceCloseConnections: 'idle',
    genReqId: requestIdOf,
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkError,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  });
  if (tracing) {
    // Before any route: @fastify/otel wires each route as it is added.
    await app.register(tracing.fastifyPlugin);
    const unobserve = observeStatements(options.db, tracing.statementObserver);
    app.addHook('onClose', async () => { unobserve(); await tracing.shutdown(); });
  }
  await app.register(coverline, { ...rest, config, tracing });
  return app;
}
