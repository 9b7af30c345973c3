import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withExampleDatesFor } from './example-dates.js';

/** The bundled contract (generated/openapi.json) and what the server derives from it. */

const bundlePath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../generated/openapi.json');
let cached: any;

export function publishedDocument(): { openapi: string; info: { version: string }; paths: Record<string, any>; [key: string]: unknown } {
  cached ??= JSON.parse(readFileSync(bundlePath, 'utf8'));
  return cached;
}

export const apiVersion = () => publishedDocument().info.version;

let forReaders: { day: string; doc: Record<string, unknown> } | undefined;

/**
 * The contract as readers are shown it (`GET /openapi.json`): the bundle with its examples' dates
 * moved from their anchor day to `today` (`withExampleDatesFor`). One copy per day, shared by every
 * app started that day.
 */
export function documentForReaders(today: Date): Record<string, unknown> {
  const day = today.toISOString().slice(0, 10);
  if (forReaders?.day !== day) forReaders = { day, doc: withExampleDatesFor(publishedDocument(), today) };
  return forReaders.doc;
}

/** Where the API is mounted: every operation's path starts with it. */
export const API_PREFIX = '/api/v1';

export type SecurityRequirement = Record<string, string[]>;

export interface OperationMeta {
  operationId: string;
  /** The contract's one-line summary (`Create a branch`). */
  summary: string;
  method: string;
  path: string;
  /** The status the operation answers with when it works: its 2xx, or a 3xx for a form post that redirects. */
  successStatus: number;
  /** Whether that answer is a `{statusCode, success, ...}` envelope. */
  envelope: boolean;
  security: SecurityRequirement[];
  /** The request is authenticated by a webhook signature over its raw body (`webhookSignature`). */
  signed: boolean;
  /** The media types the request body may have (none: the operation takes no body). */
  bodyTypes: string[];
  multipart: boolean;
  /** The contract says the operation needs a body. */
  bodyRequired: boolean;
  /**
   * The operation takes the `Idempotency-Key` header: a request that sends one is run once per key
   * and caller, its answer replayed (server/platform/idempotency.ts, applied by the routes).
   */
  idempotencyKey: boolean;
}

/** The header that makes a request safe to retry, where the contract declares it (lower case, as Node gives headers). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Whether a schema (or one it is composed of) declares `property`. */
function declares(doc: any, schema: any, property: string): boolean {
  const resolved = resolveRef(doc, schema);
  if (!resolved || typeof resolved !== 'object') return false;
  if (resolved.properties && property in resolved.properties) return true;
  return (resolved.allOf ?? []).some((part: any) => declares(doc, part, property));
}

function resolveRef(doc: any, node: any): any {
  let current = node;
  while (current?.$ref) {
    current = current.$ref.slice(2).split('/').reduce((acc: any, key: string) => acc?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return current;
}

/** One entry per operation, keyed by operationId. */
export function operationIndex(doc = publishedDocument()): Map<string, OperationMeta> {
  const index = new Map<string, OperationMeta>();
  for (const [route, item] of Object.entries<any>(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const codes = Object.keys(op.responses);
      const successCode = codes.find((code) => /^2\d\d$/.test(code)) ?? codes.find((code) => /^3\d\d$/.test(code));
      if (!successCode) throw new Error(`${op.operationId} declares no 2xx or 3xx response`);
      const success = resolveRef(doc, op.responses[successCode]);
      const schema = success?.content?.['application/json']?.schema;
      const requestBody = resolveRef(doc, op.requestBody);
      const security: SecurityRequirement[] = op.security ?? doc.security ?? [];
      index.set(op.operationId, {
        operationId: op.operationId,
        summary: op.summary ?? op.operationId,
        method: method.toUpperCase(),
        path: route,
        successStatus: Number(successCode),
        envelope: declares(doc, schema, 'success'),
        security,
        signed: security.some((requirement) => 'webhookSignature' in requirement),
        bodyTypes: Object.keys(requestBody?.content ?? {}),
        multipart: Boolean(requestBody?.content?.['multipart/form-data']),
        bodyRequired: requestBody?.required === true,
        idempotencyKey: [...(item.parameters ?? []), ...(op.parameters ?? [])].map((parameter: any) => resolveRef(doc, parameter))
          .some((parameter: any) => parameter?.in === 'header' && String(parameter.name).toLowerCase() === IDEMPOTENCY_KEY_HEADER),
      });
    }
  }
  return index;
}

/**
 * A copy of the contract ajv can compile: ajv takes `discriminator` but not its `mapping` (it
 * finds each branch's tag in the branch itself). A schema that gives both a `oneOf` (for code
 * generators' types) and an `if`/`then`/`else` saying the same (ClaimCreateRequest) is checked by
 * the latter alone, so a 400 names the field at fault in the branch the body is, not in the first
 * branch. Every schema the server validates with comes from this copy, through
 * fastify-openapi-glue or `checkAgainstSchema`.
 */
export function documentForAjv(doc = publishedDocument()) {
  const copy = structuredClone(doc);
  const strip = (node: any) => {
    if (Array.isArray(node)) { node.forEach(strip); return; }
    if (!node || typeof node !== 'object') return;
    if (node.discriminator?.mapping) delete node.discriminator.mapping;
    if (node.oneOf && node.if && node.then && node.else) delete node.oneOf;
    Object.values(node).forEach(strip);
  };
  strip(copy);
  return copy;
}

/**
 * The copy of the contract given to fastify-openapi-glue: ajv's (see `documentForAjv`), with
 * multipart bodies left to the handlers, which parse and check them, and no serializer for file
 * answers. In production the operations marked `x-sandbox-only` (the sandbox mailbox) are left
 * out, and so are the operations named in `without` (the metrics when they are off), so their
 * paths answer as paths the API does not have.
 */
export function documentForRouting(doc = publishedDocument(), { production = false, without = [] as readonly string[] } = {}) {
  const copy = documentForAjv(doc);
  for (const [route, item] of Object.entries<any>(copy.paths)) {
    for (const method of METHODS) {
      if (production && item[method]?.['x-sandbox-only'] === true) delete item[method];
      else if (item[method] && without.includes(item[method].operationId)) delete item[method];
    }
    if (!METHODS.some((method) => item[method])) delete copy.paths[route];
  }
  for (const item of Object.values<any>(copy.paths)) {
    for (const method of METHODS) {
      // Files (PDFs, images) are sent as they are: only JSON answers need a serializer schema.
      for (const [status, response] of Object.entries<any>(item[method]?.responses ?? {})) {
        const resolved = resolveRef(copy, response);
        if (!resolved?.content) continue;
        const json = Object.fromEntries(Object.entries(resolved.content).filter(([type]) => type.includes('json')));
        item[method].responses[status] = { ...resolved, content: json };
      }
      const body = resolveRef(copy, item[method]?.requestBody);
      if (!body?.content?.['multipart/form-data']) continue;
      // The JSON form (if any) is still validated by ajv; the multipart form by its handler.
      const { 'multipart/form-data': _multipart, ...others } = body.content;
      if (Object.keys(others).length) item[method].requestBody = { ...body, content: others };
      else delete item[method].requestBody;
    }
  }
  return copy;
}
