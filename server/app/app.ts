import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { compileValidator, lazySerializers } from '../platform/validation.js';
import { bodyParsing } from './body.js';
import { errorHandling, frameworkError, MAX_PARAM_LENGTH } from './errors.js';
import { observability } from './observability.js';
import { routes } from './routes.js';
import { security } from './security.js';
import { services, type ServiceOptions } from './services.js';
import { shutdownGate } from './shutdown.js';

export interface AppOptions extends ServiceOptions {
  /** Fastify's logger setting; off unless given. */
  logger?: boolean | object;
}

/**
 * The composition root as a plugin: error handling, body parsing, security, the services handlers
 * are given, the metrics' hooks (when on), the shutdown gate, and one route per operation of the contract, in that order.
 */
export const coverline = fp(async (app, options: ServiceOptions) => {
  app.setValidatorCompiler(compileValidator);
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
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    // On close, idle keep-alive connections are closed at once rather than holding the close open.
    forceCloseConnections: 'idle',
    genReqId: () => randomUUID(),
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkError,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  });
  await app.register(coverline, options);
  return app;
}
