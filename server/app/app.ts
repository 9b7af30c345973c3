import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import fastifyJwt from '@fastify/jwt';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import { handlers } from '../../handlers/index.js';
import { systemClock, type Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { HandlerContext, Services } from '../platform/context.js';
import type { Db } from '../platform/db/database.js';
import { ApiError, errorBody, HtmlError, validationMessage } from '../platform/errors.js';
import { sandboxProvider, type PaymentProvider } from '../platform/payments/provider.js';
import { outboxNotifier, type Notifier } from '../platform/notifier.js';
import { API_PREFIX, documentForRouting, operationIndex, type OperationMeta } from '../platform/openapi.js';
import contentDisposition from 'content-disposition';
import type { FileResult, RedirectResult } from '../platform/files.js';
import { multipartParts } from '../platform/multipart.js';
import { securityHook, webhookSignatureCheck } from './security.js';
import { createStorage } from '../platform/storage/index.js';
import { TenantScope } from '../platform/tenancy.js';
import { compileValidator } from '../platform/validation.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app serves (method and URL), in registration order. */
    routeTable: { method: string; url: string }[];
    /** The services handlers get (database, clock, notifier, payment provider...), for background jobs. */
    services: Services;
  }
}

export interface AppOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  notifier?: Notifier;
  /** The payment provider; the sandbox one unless given. */
  payments?: PaymentProvider;
  /** Fastify's logger setting; off unless given. */
  logger?: boolean | object;
}

/** The first string holding a NUL character, by its path: PostgreSQL text cannot store one. */
function nulAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) { const found = nulAt(item, `${path}[${i}]`); if (found) return found; }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) { const found = nulAt(item, `${path}.${key}`); if (found) return found; }
  }
  return undefined;
}

function sendError(reply: FastifyReply, statusCode: number, message: string, code?: string) {
  return reply.code(statusCode).type('application/json').send(errorBody(statusCode, message, code));
}

/** Maps every failure to `{statusCode, message, error, code}`; 5xx details stay in the log. */
/** A server-side disconnect (admin shutdown, crash) or a dropped socket: PostgreSQL classes 57P and 08. */
function lostDatabaseConnection(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (/^57P0[123]$/.test(code) || /^08/.test(code))) return true;
  return /Connection terminated|Client has encountered a connection error|connection is closed/i.test(error.message);
}

function handleError(error: FastifyError | ApiError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HtmlError) {
    reply.headers(error.headers);
    return reply.code(error.statusCode).type('text/html; charset=utf-8').send(error.html);
  }
  if (error instanceof ApiError) {
    reply.headers(error.headers);
    return sendError(reply, error.statusCode, error.message, error.code);
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation?.length) {
    const context = fastifyError.validationContext === 'querystring' ? 'query' : fastifyError.validationContext ?? 'request';
    return sendError(reply, 400, validationMessage(context, fastifyError.validation as any), 'VALIDATION_ERROR');
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    const known: Record<string, [string, string]> = {
      FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'Request body is too large'],
      FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', `Content-Type ${request.headers['content-type'] ?? '(none)'} is not accepted here`],
      FST_ERR_CTP_INVALID_JSON_BODY: ['INVALID_JSON', 'The body is not valid JSON'],
      FST_ERR_CTP_EMPTY_JSON_BODY: ['INVALID_JSON', 'The body is empty but Content-Type is application/json'],
      FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['INVALID_CONTENT_LENGTH', 'Content-Length does not match the body'],
    };
    const [code, message] = known[fastifyError.code] ?? [
      status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST',
      fastifyError.message,
    ];
    return sendError(reply, status, message, code);
  }
  if (lostDatabaseConnection(error)) {
    // The transaction died with its connection, so nothing was written: the caller may retry.
    request.log.warn({ err: error }, 'database connection lost');
    reply.header('retry-after', '1');
    return sendError(reply, 503, 'The database connection was lost and nothing was saved; retry the request (with the same Idempotency-Key)', 'SERVICE_UNAVAILABLE');
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendError(reply, 500, 'Internal Server Error', 'INTERNAL_ERROR');
}

function sendFile(reply: FastifyReply, file: FileResult) {
  reply.type(file.contentType);
  if (file.size !== undefined) reply.header('content-length', file.size);
  if (file.filename) {
    // An ASCII `filename` for every client, the exact name in `filename*`: the header stays 7-bit.
    const fallback = file.filename.replace(/[^\x20-\x7e]/g, '_');
    reply.header('content-disposition', contentDisposition(file.filename, { type: file.disposition ?? 'attachment', fallback }));
  }
  if (file.headers) reply.headers(file.headers);
  return reply.send(file.body);
}

/**
 * A multipart handler that stopped early (a refused file, a limit) leaves the rest of the body
 * unread, and the client stuck sending it on a connection nothing reads any more: read and drop
 * it (closing the connection past `cap` bytes) so the answer arrives and the connection is reusable.
 */
function discardUnreadBody(request: FastifyRequest, cap: number) {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  raw.unpipe();
  let discarded = 0;
  raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > cap) raw.destroy();
  });
  raw.resume();
}

/** What a route tells the body parsers (its `config`). */
interface RouteBodyConfig {
  operationId: string;
  /** Keep the body's exact bytes in `request.rawBody` (a signature is checked over them). */
  rawBody: boolean;
  /** The request body's media types the contract lists for the operation. */
  bodyTypes: string[];
}

const routeConfig = (request: FastifyRequest) => request.routeOptions.config as Partial<RouteBodyConfig>;

const unsupportedMediaType = (request: FastifyRequest) =>
  new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type ${request.headers['content-type'] ?? '(none)'} is not accepted here`);

/**
 * JSON as Fastify parses it (its own parser, with its prototype-poisoning checks and errors), read
 * as bytes so that a route verifying a signature keeps them; and HTML form posts
 * (`application/x-www-form-urlencoded`), for the operations whose contract takes them only.
 */
function registerBodyParsers(app: FastifyInstance) {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig as {
    onProtoPoisoning?: 'error' | 'remove' | 'ignore'; onConstructorPoisoning?: 'error' | 'remove' | 'ignore';
  };
  const parseJson = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (routeConfig(request).rawBody) request.rawBody = body as Buffer;
    // Fastify's parser takes the text; secure-json-parse reads a Buffer as UTF-8 the same way.
    parseJson(request, body as unknown as string, done);
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    if (!routeConfig(request).bodyTypes?.includes('application/x-www-form-urlencoded')) {
      done(unsupportedMediaType(request), undefined);
      return;
    }
    const fields: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(body as string)) {
      if (Object.hasOwn(fields, name)) {
        done(new ApiError(400, 'VALIDATION_ERROR', `body.${name} is given more than once`), undefined);
        return;
      }
      fields[name] = value;
    }
    done(null, fields);
  });
}

/** Builds the API: routes, validation and security all come from the bundled contract. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    genReqId: () => randomUUID(),
    trustProxy: process.env.TRUST_PROXY === 'true',
  });
  app.decorate('routeTable', []);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) app.routeTable.push({ method, url: route.url });
  });
  app.setValidatorCompiler(compileValidator);
  // Bodies are JSON (or multipart, or an HTML form, where the contract says so): anything else is
  // a 415, not a string.
  app.removeContentTypeParser('text/plain');
  registerBodyParsers(app);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => sendError(reply, 404, `Route ${request.method} ${request.url.split('?')[0]} not found`, 'ROUTE_NOT_FOUND'));

  await app.register(helmet, { global: true });
  await app.register(cors, {
    origin: config.corsOrigins === '*' ? true : config.corsOrigins,
    allowedHeaders: ['Content-Type', 'Authorization', 'Api-Key', 'Idempotency-Key'],
    exposedHeaders: ['Retry-After', 'Content-Disposition', 'X-Content-SHA256'],
    maxAge: 600,
  });
  await app.register(fastifyJwt, {
    secret: config.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: config.jwtTtlSeconds },
    verify: { algorithms: ['HS256'] },
  });
  // Multipart before glue: glue's routes for multipart bodies rely on its parser.
  await app.register(multipart, { limits: { fileSize: config.maxUploadBytes, files: config.maxUploadFiles, fields: 50 } });

  const services: Services = {
    config,
    db,
    clock: options.clock ?? systemClock,
    notifier: options.notifier ?? outboxNotifier,
    storage: createStorage(config),
    payments: options.payments ?? sandboxProvider(config),
    async deliverWebhook(provider, { headers, body }) {
      const answer = await app.inject({ method: 'POST', url: `${API_PREFIX}/webhooks/payments/${encodeURIComponent(provider)}`, headers, payload: body });
      if (answer.statusCode >= 300) app.log.warn({ provider, statusCode: answer.statusCode, answer: answer.body }, 'payment webhook refused');
      return { statusCode: answer.statusCode, body: answer.body };
    },
    async signAccessToken({ tenantId, clientId, sessionVersion }) {
      const token = app.jwt.sign({ sub: clientId, tid: tenantId, kind: 'client', sv: sessionVersion, jti: randomUUID() });
      const { exp } = app.jwt.decode<{ exp: number }>(token)!;
      return { token, expiresAt: new Date(exp * 1000) };
    },
  };

  app.decorate('services', services);

  const operations = operationIndex();
  const route = (meta: OperationMeta) => {
    const handler = (handlers as Record<string, (ctx: HandlerContext, req: any) => Promise<any>>)[meta.operationId];
    if (!handler) throw new Error(`no handler for ${meta.operationId}`);
    const bodyConfig: RouteBodyConfig = { operationId: meta.operationId, rawBody: meta.signed, bodyTypes: meta.bodyTypes };
    const bodyHint = meta.bodyTypes.includes('application/json') || !meta.bodyTypes.length
      ? 'send JSON with Content-Type: application/json' : `send it as ${meta.bodyTypes.join(' or ')}`;
    return {
      config: bodyConfig,
      onRequest: securityHook(services, meta.security),
      // Before ajv: the body is of a type the operation takes (ajv checks only the types the
      // contract lists), a body the contract requires is there (no Content-Type means none was
      // parsed, and ajv does not check what is absent), a signed request's signature matches its
      // bytes, and no string holds a NUL.
      preValidation: async (request: FastifyRequest) => {
        const multipart = meta.multipart && request.isMultipart();
        if (request.body !== undefined && meta.bodyTypes.length && !meta.multipart) {
          const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
          if (!meta.bodyTypes.includes(type)) throw unsupportedMediaType(request);
        }
        if (meta.bodyRequired && request.body === undefined && !multipart) {
          throw new ApiError(400, 'VALIDATION_ERROR', `body is required (${bodyHint})`);
        }
        if (meta.signed) await webhookSignatureCheck(services, request);
        const nul = nulAt(request.params, 'path') ?? nulAt(request.query, 'query') ?? nulAt(request.body, 'body');
        if (nul) throw new ApiError(400, 'VALIDATION_ERROR', `${nul} must not contain a NUL character`);
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const caller = request.caller ?? { tenant: undefined as never, actor: { kind: 'anonymous' as const } };
        const ctx: HandlerContext = {
          ...services,
          tenant: caller.tenant,
          actor: caller.actor,
          scope: new TenantScope(db, caller.tenant?.id ?? '00000000-0000-0000-0000-000000000000'),
        };
        const parts = meta.multipart && request.isMultipart() ? multipartParts(request) : undefined;
        const result = await handler(ctx, {
          params: request.params,
          query: request.query,
          body: request.body,
          parts,
          headers: request.headers,
          ip: request.ip,
        }).finally(() => { if (parts) discardUnreadBody(request, config.maxUploadBytes * config.maxUploadFiles); });
        reply.code(meta.successStatus);
        if (meta.successStatus === 204) return reply.send();
        if (result?.kind === 'redirect') return reply.header('location', (result as RedirectResult).location).send();
        if (result?.kind === 'file') return sendFile(reply, result as FileResult);
        return meta.envelope ? { statusCode: meta.successStatus, success: true, ...result } : result;
      },
    };
  };

  await app.register(openapiGlue, {
    specification: documentForRouting(),
    prefix: API_PREFIX,
    operationResolver: (operationId: string) => {
      const meta = operations.get(operationId);
      if (!meta) throw new Error(`operation ${operationId} is not in the contract`);
      // glue fills in method, url and schema; the resolver adds the handler and security.
      return route(meta) as any;
    },
  });

  return app;
}
