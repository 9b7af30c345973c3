import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The bundled contract (generated/openapi.json) walked into a list of operations: every fuzz
 * request, every expectation and every access-matrix case is derived from what this answers.
 */

export type Json = any;
export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const bundlePath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../generated/openapi.json');
let cached: Json;
export function loadSpec(): Json {
  cached ??= JSON.parse(readFileSync(bundlePath, 'utf8'));
  return cached;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** The schema as written (may hold `$ref`s into the document). */
  schema: Json;
  /** `example`, `examples.*.value` and the schema's own `examples`, in that order. */
  examples: unknown[];
}

export interface ResponseSpec {
  status: string;
  /** The JSON media type's schema, when the response has a JSON body. */
  schema?: Json;
  contentTypes: string[];
}

export interface Operation {
  operationId: string;
  method: string;
  /** The path as the spec writes it (`/policies/{policyId}`). */
  path: string;
  tags: string[];
  /**
   * public: `security: []`; apiKey: the Api-Key only; bearer: the Api-Key and a client token; staff: the Api-Key and a staff token;
   * operator: the platform operator's Operator-Key alone.
   */
  security: 'public' | 'apiKey' | 'bearer' | 'staff' | 'operator' | 'metrics';
  parameters: Parameter[];
  requestBody?: { required: boolean; contentTypes: string[]; schema?: Json; examples: unknown[]; multipartParts: string[] };
  responses: Record<string, ResponseSpec>;
  /** The first 2xx status the spec declares. */
  successStatus: number;
  /** Whose resources it reaches (`x-owner`): each client's own (the default), or the whole tenant's. */
  owner: 'client' | 'tenant';
}

const unescape = (part: string) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');

/** The node a local `$ref` (`#/components/...`) points at, following chains of `$ref`s. */
export function resolveRef(doc: Json, node: Json): Json {
  let current = node;
  const seen = new Set<string>();
  while (current && typeof current === 'object' && typeof current.$ref === 'string' && current.$ref.startsWith('#/')) {
    if (seen.has(current.$ref)) throw new Error(`cyclic $ref ${current.$ref}`);
    seen.add(current.$ref);
    const target = current.$ref.slice(2).split('/').reduce((acc: Json, key: string) => acc?.[unescape(key)], doc);
    if (target === undefined) throw new Error(`unresolvable $ref ${current.$ref}`);
    // OpenAPI 3.1 lets a $ref carry siblings (summary, description): the target wins for the rest.
    const { $ref: _ref, ...siblings } = current;
    current = Object.keys(siblings).length ? { ...target, ...siblings, ...('$ref' in target ? { $ref: target.$ref } : {}) } : target;
  }
  return current;
}

/**
 * A copy of a schema with every local `$ref` inlined (a recursive one becomes `{}` past the
 * first level), for json-schema-faker and for walking a schema by hand.
 */
export function deref(doc: Json, schema: Json, stack: string[] = []): Json {
  if (Array.isArray(schema)) return schema.map((item) => deref(doc, item, stack));
  if (!schema || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/')) {
    if (stack.includes(schema.$ref)) return {};
    const { $ref, ...siblings } = schema;
    const target = deref(doc, resolveRef(doc, { $ref }), [...stack, $ref]);
    return Object.keys(siblings).length ? { ...target, ...deref(doc, siblings, stack) } : target;
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    // `examples` and `enum`/`const` are data, not schemas: copied as they are.
    out[key] = key === 'examples' || key === 'enum' || key === 'const' || key === 'default' || key === 'example'
      ? value : deref(doc, value, stack);
  }
  return out;
}

function mediaExamples(doc: Json, media: Json): unknown[] {
  const out: unknown[] = [];
  if (!media) return out;
  if (media.example !== undefined) out.push(media.example);
  for (const example of Object.values<Json>(media.examples ?? {})) {
    const resolved = resolveRef(doc, example);
    if (resolved && 'value' in resolved) out.push(resolved.value);
  }
  return out;
}

function schemaExamples(doc: Json, schema: Json): unknown[] {
  const resolved = resolveRef(doc, schema);
  if (!resolved || typeof resolved !== 'object') return [];
  return [...(Array.isArray(resolved.examples) ? resolved.examples : []), ...(resolved.example !== undefined ? [resolved.example] : [])];
}

/** The path the API is mounted on, from the first server (`/api/v1`). */
export function basePath(doc: Json = loadSpec()): string {
  const url = doc.servers?.[0]?.url ?? '/';
  const pathname = /^[a-z]+:\/\//i.test(url) ? new URL(url).pathname : url;
  return pathname.replace(/\/$/, '');
}

/** Every operation of the contract, in document order. */
export function operations(doc: Json = loadSpec()): Operation[] {
  const list: Operation[] = [];
  for (const [route, rawItem] of Object.entries<Json>(doc.paths ?? {})) {
    const item = resolveRef(doc, rawItem);
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const byKey = new Map<string, Parameter>();
      for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const p = resolveRef(doc, raw);
        byKey.set(`${p.in}:${p.name}`, {
          name: p.name,
          in: p.in,
          required: Boolean(p.required) || p.in === 'path',
          schema: p.schema ?? {},
          examples: [...mediaExamples(doc, p), ...schemaExamples(doc, p.schema)],
        });
      }
      const security: Json[] = op.security ?? doc.security ?? [];
      const kind = security.length === 0 || security.some((req: Json) => Object.keys(req).length === 0)
        ? 'public'
        : security.every((req: Json) => 'operatorKey' in req) ? 'operator'
        : security.every((req: Json) => 'metricsToken' in req) ? 'metrics'
        : security.every((req: Json) => 'bearerAuth' in req) ? 'bearer'
          : security.every((req: Json) => 'staffAuth' in req) ? 'staff' : 'apiKey';
      const body = op.requestBody ? resolveRef(doc, op.requestBody) : undefined;
      const bodyJson = body?.content?.['application/json'];
      const responses: Record<string, ResponseSpec> = {};
      for (const [status, rawResponse] of Object.entries<Json>(op.responses ?? {})) {
        const response = resolveRef(doc, rawResponse);
        const content = response?.content ?? {};
        responses[status] = { status, schema: content['application/json']?.schema, contentTypes: Object.keys(content) };
      }
      const success = Object.keys(responses).find((status) => /^2\d\d$/.test(status));
      list.push({
        operationId: op.operationId ?? `${method} ${route}`,
        method: method.toUpperCase(),
        path: route,
        tags: op.tags ?? [],
        security: kind,
        parameters: [...byKey.values()],
        requestBody: body ? {
          required: Boolean(body.required),
          contentTypes: Object.keys(body.content ?? {}),
          schema: bodyJson?.schema,
          examples: [...mediaExamples(doc, bodyJson), ...schemaExamples(doc, bodyJson?.schema)],
          multipartParts: Object.keys(deref(doc, body.content?.['multipart/form-data']?.schema ?? {})?.properties ?? {}),
        } : undefined,
        responses,
        successStatus: Number(success ?? 200),
        owner: op['x-owner'] === 'tenant' ? 'tenant' : 'client',
      });
    }
  }
  return list;
}

/** The response the spec declares for a status: exact, then `4XX`-style ranges, then `default`. */
export function declaredResponse(op: Operation, status: number): ResponseSpec | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses[`${String(status)[0]}xx`] ?? op.responses.default;
}

export const pathParams = (op: Operation) => op.parameters.filter((p) => p.in === 'path');
export const queryParams = (op: Operation) => op.parameters.filter((p) => p.in === 'query');

/** `/policies/{policyId}/claims` → `['policyId']`, in order. */
export function pathParamNames(route: string): string[] {
  return [...route.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

/**
 * Whether a (dereferenced) schema describes `{..., data: [...]}`: a list answer. Looks through
 * `allOf` (envelopes are composed that way).
 */
export function listDataSchema(doc: Json, schema: Json): Json | undefined {
  const resolved = resolveRef(doc, schema);
  if (!resolved || typeof resolved !== 'object') return undefined;
  let found: Json;
  const data = resolved.properties?.data && resolveRef(doc, resolved.properties.data);
  if (data && (data.type === 'array' || (Array.isArray(data.type) && data.type.includes('array')))) found = data;
  for (const part of resolved.allOf ?? []) {
    const inner = listDataSchema(doc, part);
    // The most specific `data` (with `items` that say something) wins over `items: {}`.
    if (inner && (!found || Object.keys(resolveRef(doc, inner.items) ?? {}).length)) found = inner;
  }
  return found;
}

/** Whether a schema (through `allOf`) describes an object whose `data` has an `id`, or has an `id` itself. */
export function answersResourceId(doc: Json, schema: Json): boolean {
  const hasId = (node: Json, depth = 0): boolean => {
    const s = resolveRef(doc, node);
    if (!s || typeof s !== 'object' || depth > 6) return false;
    if (s.properties?.id) return true;
    return [...(s.allOf ?? [])].some((part: Json) => hasId(part, depth + 1));
  };
  const dataOf = (node: Json, depth = 0): Json[] => {
    const s = resolveRef(doc, node);
    if (!s || typeof s !== 'object' || depth > 6) return [];
    return [...(s.properties?.data ? [s.properties.data] : []), ...(s.allOf ?? []).flatMap((part: Json) => dataOf(part, depth + 1))];
  };
  const datas = dataOf(schema);
  if (datas.length) return datas.some((d) => { const r = resolveRef(doc, d); return r?.type !== 'array' && hasId(d); });
  return hasId(schema);
}
