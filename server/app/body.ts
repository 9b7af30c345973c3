import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../platform/config.js';
import { ApiError } from '../platform/errors.js';
import type { OperationMeta } from '../platform/openapi.js';

/** What a route tells the body parsers (its `config`). */
export interface RouteBodyConfig {
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

/**
 * Bodies are JSON, multipart or an HTML form, where the contract says so: anything else is a 415,
 * not a string. The size limit of a whole body is Fastify's `bodyLimit` (`buildApp`); uploads have
 * their own, per file.
 */
export const bodyParsing = fp(async (app, { config }: { config: Config }) => {
  app.removeContentTypeParser('text/plain');
  registerBodyParsers(app);
  // Before the routes: glue's routes for multipart bodies rely on this parser.
  await app.register(multipart, { limits: { fileSize: config.maxUploadBytes, files: config.maxUploadFiles, fields: 50 } });
}, { name: 'coverline-body', fastify: '5.x' });

/** Deepest nesting of arrays and objects a request may send; the contract's own bodies stay far below it. */
export const MAX_NESTING = 32;

/**
 * Walks a parsed value without recursion (a deep body cannot exhaust the stack): the path of the
 * first string holding a NUL character (PostgreSQL text cannot store one), or a 400 when the value
 * nests deeper than MAX_NESTING.
 */
function nulAt(root: unknown, rootPath: string): string | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value: root, path: rootPath, depth: 0 }];
  while (pending.length) {
    const { value, path, depth } = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (value && typeof value === 'object') {
      if (depth >= MAX_NESTING) throw new ApiError(400, 'VALIDATION_ERROR', `${rootPath} nests arrays and objects deeper than ${MAX_NESTING} levels`);
      const entries = Array.isArray(value) ? value.map((item, i) => [`[${i}]`, item] as const) : Object.entries(value).map(([key, item]) => [`.${key}`, item] as const);
      for (let i = entries.length - 1; i >= 0; i -= 1) pending.push({ value: entries[i][1], path: `${path}${entries[i][0]}`, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Checks made before ajv: the body is of a type the operation takes (ajv checks only the types the
 * contract lists), a body the contract requires is there (no Content-Type means none was parsed,
 * and ajv does not check what is absent), and no string holds a NUL.
 */
export function checkBody(meta: OperationMeta, request: FastifyRequest) {
  const isMultipart = meta.multipart && request.isMultipart();
  if (request.body !== undefined && meta.bodyTypes.length && !meta.multipart) {
    const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!meta.bodyTypes.includes(type)) throw unsupportedMediaType(request);
  }
  if (meta.bodyRequired && request.body === undefined && !isMultipart) {
    const hint = meta.bodyTypes.includes('application/json') || !meta.bodyTypes.length
      ? 'send JSON with Content-Type: application/json' : `send it as ${meta.bodyTypes.join(' or ')}`;
    throw new ApiError(400, 'VALIDATION_ERROR', `body is required (${hint})`);
  }
}

/** Refuses a NUL character anywhere in the path, query or body (after a signature is checked). */
export function checkNoNul(request: FastifyRequest) {
  const nul = nulAt(request.params, 'path') ?? nulAt(request.query, 'query') ?? nulAt(request.body, 'body');
  if (nul) throw new ApiError(400, 'VALIDATION_ERROR', `${nul} must not contain a NUL character`);
}

/**
 * A multipart handler that stopped early (a refused file, a limit) leaves the rest of the body
 * unread, and the client stuck sending it on a connection nothing reads any more: read and drop
 * it (closing the connection past `cap` bytes) so the answer arrives and the connection is reusable.
 */
export function discardUnreadBody(request: FastifyRequest, cap: number) {
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
