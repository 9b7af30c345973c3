/**
 * Breaking changes between two versions of the contract (OpenAPI 3.1 bundles, as `npm run generate`
 * writes them): what would make a client built against `baseline` fail against `current`.
 *
 * Both are down-converted to OpenAPI 3.0 (scripts/openapi30.ts, as for the SDK) and compared by
 * Atlassian's openapi-diff, which treats each request and response body as the set of JSON values
 * it admits: a request body that admits less, or a response body that admits more, is breaking, as
 * are a removed path, method, status code or required response header. openapi-diff does not look
 * at parameters, security, non-JSON media types, `enum`, `nullable`, `format` or `pattern` (see its
 * SPEC_SUPPORT.md and json-schema-diff's KEYWORDS.md), so the rules in this file add those:
 *
 * - parameters: removed, added as required, made required, re-serialised; their schemas are fed to
 *   openapi-diff as request bodies, so a narrowed type or range is caught the same way;
 * - request bodies: made required, added as required, removed, a media type removed; responses: a
 *   media type removed; every schema pair (any media type, parameters, response headers) compared;
 * - in every schema, request side: an enum value removed, `nullable` dropped, a `format`, `pattern`
 *   or `multipleOf` added or changed, a oneOf/anyOf variant removed; response side: an enum value
 *   added, `nullable` added, a `format`, `pattern` or `multipleOf` dropped or changed, a property
 *   removed (even an optional one of a closed object, which openapi-diff counts as a narrowing), a
 *   variant added;
 * - security: an operation no longer satisfied by credentials that used to suffice, or a security
 *   scheme a client uses removed or redefined.
 *
 * Response objects are compared as open (clients ignore properties they do not know), so adding a
 * property to an answer is not breaking even where the schema says `additionalProperties: false`.
 * An enum marked `x-enum-extensible: true` (the event types: the catalogue grows, and clients are
 * told to ignore a type they do not know) may gain values in an answer without breaking anyone.
 *
 * The webhooks (3.1's `webhooks`: what the API POSTs to integrators, one per event type) are read
 * by the integrator's endpoint as a client reads an answer: each is compared as an operation
 * `POST /~webhooks/<event type>` whose 200 answer is the delivery (its body and headers), so the
 * answer rules hold for event payloads: an event type, a payload property or a required header
 * removed is breaking, one added is not. They are named `webhook <event type>` in the report.
 *
 * Two preparations keep openapi-diff exact and fast. 3.1's `unevaluatedProperties: false` (dropped
 * by the down-converter) is first written as the closed object it means, so adding an optional
 * request property counts as the widening it is. And instead of whole documents, openapi-diff gets
 * each operation's skeleton (paths, methods, status codes, headers) plus one synthetic operation per
 * schema pair that differs, with discriminated unions split into their variants: its set algebra
 * takes minutes on a union of two large objects (the signup body) but milliseconds per variant,
 * and identical schemas are never handed to it.
 */
import openapiDiff from 'openapi-diff';
import { isObj, METHODS, toOpenApi30, type Json, type Obj } from './openapi30.js';

/** Marks an enum that may gain values in answers without breaking clients (the event types). */
const EXTENSIBLE = 'x-enum-extensible';

/** Formats, and the formats that accept every value they do (and more). */
const WIDER_FORMATS: Record<string, string[]> = {
  uri: ['uri-reference', 'iri', 'iri-reference'],
  'uri-reference': ['iri-reference'],
  iri: ['iri-reference'],
  email: ['idn-email'],
  hostname: ['idn-hostname'],
};

export type ChangeType = 'breaking' | 'non-breaking' | 'unclassified';

export interface Change {
  type: ChangeType;
  /** `openapi-diff` for what it found, `rules` for the checks in this file. */
  source: 'openapi-diff' | 'rules';
  /** A stable name for the kind of change, e.g. `request.enum.remove`, `path.remove`. */
  code: string;
  /** Where: `METHOD /path`, the part of the operation, and a property path. */
  where: string;
  /** What changed, in words. */
  message: string;
}

export interface BreakingReport {
  breaking: Change[];
  nonBreaking: Change[];
  unclassified: Change[];
}

type Direction = 'request' | 'response';

// ---------------------------------------------------------------------------------------------
// Preparation on the 3.1 documents.

const PLAIN_MEMBER_KEYS = new Set(['type', 'properties', 'required', 'description', 'title']);

/**
 * `unevaluatedProperties: false` over `allOf` members that only declare properties (or are `allOf`s
 * of such members) is a closed object with all their properties: written so, 3.0 keeps it (as `additionalProperties: false`).
 */
function closeUnevaluated(doc: Obj): Obj {
  const copy = structuredClone(doc);
  const schemas = isObj(copy.components) && isObj(copy.components.schemas) ? copy.components.schemas : {};
  const lookup = (node: Json): Json => {
    let current = node;
    for (let hops = 0; isObj(current) && typeof current.$ref === 'string' && hops < 20; hops += 1) {
      current = schemas[current.$ref.replace('#/components/schemas/', '')] ?? null;
    }
    return current;
  };
  const visit = (node: Json) => {
    if (Array.isArray(node)) { node.forEach(visit); return; }
    if (!isObj(node)) return;
    for (const value of Object.values(node)) visit(value);
    if (node.unevaluatedProperties !== false) return;
    // Members may themselves be plain `allOf`s of plain members (signup's fields over the shared client fields).
    const flatten = (member: Json, depth = 0): Json[] => {
      if (!isObj(member) || !Array.isArray(member.allOf) || depth > 10) return [member];
      const { allOf, ...own } = member;
      return [own, ...allOf.flatMap((m) => flatten(lookup(m), depth + 1))];
    };
    const members = Array.isArray(node.allOf) ? node.allOf.flatMap((m) => flatten(lookup(m))) : [];
    if (!members.every((m) => isObj(m) && Object.keys(m).every((k) => PLAIN_MEMBER_KEYS.has(k) || k.startsWith('x-')))) return;
    const properties: Obj = {};
    const required = new Set<string>();
    for (const part of [...(members as Obj[]), node]) {
      for (const [name, sub] of Object.entries(isObj(part.properties) ? part.properties : {})) {
        properties[name] = name in properties ? { allOf: [properties[name], sub] } : sub;
      }
      for (const name of Array.isArray(part.required) ? part.required : []) if (typeof name === 'string') required.add(name);
    }
    delete node.allOf;
    delete node.unevaluatedProperties;
    node.type = 'object';
    node.properties = properties;
    if (required.size) node.required = [...required];
    node.additionalProperties = false;
  };
  visit(schemas);
  return copy;
}

/** Where a webhook is compared: a route no real path can have. */
const WEBHOOK_ROUTE = '/~webhooks/';

/**
 * The webhooks as operations (see the top of this file): `POST /~webhooks/<name>`, answering 200
 * with the delivery's body and its header parameters as headers. The down-converter drops
 * `webhooks`, so they are lifted into `paths` before it runs.
 */
function liftWebhooks(doc: Obj): Obj {
  if (!isObj(doc.webhooks)) return doc;
  const copy = structuredClone(doc);
  const paths: Obj = isObj(copy.paths) ? copy.paths : {};
  for (const [name, rawItem] of Object.entries(isObj(copy.webhooks) ? copy.webhooks : {})) {
    const item = resolve(copy, rawItem);
    if (!isObj(item)) continue;
    const lifted: Obj = {};
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const headers: Obj = {};
      for (const raw of [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
        const parameter = resolve(copy, raw);
        if (isObj(parameter) && parameter.in === 'header' && typeof parameter.name === 'string') {
          headers[parameter.name] = { required: parameter.required === true, ...(parameter.schema !== undefined ? { schema: parameter.schema } : {}) };
        }
      }
      const body = resolve(copy, op.requestBody);
      lifted[method] = {
        ...(typeof op.operationId === 'string' ? { operationId: op.operationId } : {}),
        responses: { 200: { description: 'the delivery', ...(Object.keys(headers).length ? { headers } : {}), ...(isObj(body) && isObj(body.content) ? { content: body.content } : {}) } },
      };
    }
    paths[`${WEBHOOK_ROUTE}${name}`] = lifted;
  }
  copy.paths = paths;
  delete copy.webhooks;
  return copy;
}

/** A change found on a lifted webhook, said of the webhook: `webhook invoice.paid payload: data.object.invoiceNo`. */
function ofWebhook(change: Change): Change {
  const match = /^(?:[A-Z]+|path) \/~webhooks\/([^\s:]+)( response 200)?(.*)$/s.exec(change.where);
  if (!match) return change;
  const [, name, payload, rest] = match;
  const where = `webhook ${name}${payload ? ' payload' : ''}${rest}`;
  if (change.code === 'path.remove' || change.code === 'method.remove') {
    return { ...change, code: 'webhook.remove', where, message: 'event type removed: endpoints subscribed to it no longer receive it' };
  }
  if (change.code === 'path.add' || change.code === 'method.add') return { ...change, code: 'webhook.add', where, message: 'event type added' };
  return { ...change, where };
}

// ---------------------------------------------------------------------------------------------
// Reading the 3.0 documents.

function pointer(doc: Obj, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    node = isObj(node) ? node[key] : undefined;
  }
  return node;
}

/** The node a `$ref` (chain) points at, or the node itself. */
function resolve(doc: Obj, node: Json | undefined): Json | undefined {
  let current = node;
  for (let hops = 0; isObj(current) && typeof current.$ref === 'string' && hops < 50; hops += 1) current = pointer(doc, current.$ref);
  return current;
}

const refName = (node: Json | undefined) => (isObj(node) && typeof node.$ref === 'string' ? node.$ref.split('/').pop()! : undefined);

/** Keywords that document a schema without changing what it admits. */
const DOC_KEYWORDS = new Set(['description', 'title', 'example', 'examples', 'externalDocs', 'deprecated', 'xml', 'discriminator']);

/** Bounds a schema can tighten, and which way is tighter. */
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const tightened = (key: string, was: Json | undefined, now: Json | undefined) => typeof now === 'number' &&
  (was === undefined || (typeof was === 'number' && (UPPER_BOUNDS.includes(key) ? now <= was : now >= was)));

/**
 * Whether schema `b` (of document `docB`) admits only values schema `a` (of `docA`) admits, by
 * changes whose effect is plain without set algebra, at any depth, and nothing else changed but
 * documentation: properties made required, a bound (maxLength, maximum, maxItems, ...) added or
 * tightened, a format added, and, when `newProperties` (answers, read as open objects), properties
 * added, every old one kept with the same or a narrower schema, and extensible enums grown. As an answer such a `b` breaks no
 * client; as a request it refuses values it took, which breaks them. Anything else answers false
 * (openapi-diff then decides).
 */
function onlyNarrows(docA: Obj, a: Json | undefined, docB: Obj, b: Json | undefined, newProperties: boolean, seen: Set<string> = new Set()): boolean {
  const pairKey = isObj(a) && isObj(b) && typeof a.$ref === 'string' && typeof b.$ref === 'string' ? `${a.$ref} ${b.$ref}` : undefined;
  if (pairKey) {
    if (seen.has(pairKey)) return true;
    seen.add(pairKey);
  }
  const ra = resolve(docA, a);
  const rb = resolve(docB, b);
  if (!isObj(ra) || !isObj(rb)) return JSON.stringify(ra) === JSON.stringify(rb);
  const oldProperties = isObj(ra.properties) ? ra.properties : {};
  const narrower = (x: Json | undefined, y: Json | undefined) => onlyNarrows(docA, x, docB, y, newProperties, seen);
  for (const key of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
    if (DOC_KEYWORDS.has(key) || key.startsWith('x-')) continue;
    const [va, vb] = [ra[key], rb[key]];
    // An answer's extensible enum may grow: clients take any value there (the rules report it).
    if (key === 'enum' && newProperties && ra[EXTENSIBLE] === true && rb[EXTENSIBLE] === true) continue;
    if (key === 'properties') {
      if (!isObj(vb) || (va !== undefined && !isObj(va))) return false;
      if (!Object.entries(oldProperties).every(([name, sub]) => name in vb && narrower(sub, vb[name]))) return false;
      if (!newProperties && Object.keys(vb).some((name) => !(name in oldProperties))) return false;
    } else if (key === 'required') {
      const [was, now] = [Array.isArray(va) ? va : [], Array.isArray(vb) ? vb : []];
      if (!was.every((name) => now.includes(name))) return false;
    } else if (UPPER_BOUNDS.includes(key) || LOWER_BOUNDS.includes(key)) {
      if (JSON.stringify(va) !== JSON.stringify(vb) && !tightened(key, va, vb)) return false;
    } else if (key === 'format') {
      if (va !== undefined && va !== vb) return false;
    } else if (['allOf', 'anyOf', 'oneOf'].includes(key) && Array.isArray(va) && Array.isArray(vb)) {
      if (va.length !== vb.length || !va.every((sub, i) => narrower(sub, vb[i]))) return false;
    } else if (['items', 'additionalProperties', 'not'].includes(key) && isObj(va) && isObj(vb)) {
      // Under `not`, narrower is wider: only the same schema will do.
      if (key === 'not' ? JSON.stringify(va) !== JSON.stringify(vb) : !narrower(va, vb)) return false;
    } else if (JSON.stringify(va) !== JSON.stringify(vb)) {
      return false;
    }
  }
  return true;
}

/** A schema with references inlined and documentation dropped, as a string: equal means same contract. */
function canonical(doc: Obj, node: Json | undefined, memo: WeakMap<object, string>): string {
  const stack = new Set<string>();
  const schema = (value: Json | undefined): Json => {
    if (!isObj(value)) return value ?? null;
    if (typeof value.$ref === 'string') {
      if (stack.has(value.$ref)) return { $cycle: value.$ref };
      stack.add(value.$ref);
      const target = schema(pointer(doc, value.$ref));
      stack.delete(value.$ref);
      return target;
    }
    const out: Obj = {};
    for (const key of Object.keys(value).sort()) {
      if (DOC_KEYWORDS.has(key) || key.startsWith('x-')) continue;
      const sub = value[key];
      if (key === 'properties' && isObj(sub)) out[key] = Object.fromEntries(Object.keys(sub).sort().map((name) => [name, schema(sub[name])]));
      else if (['items', 'additionalProperties', 'not'].includes(key) && isObj(sub)) out[key] = schema(sub);
      else if (['allOf', 'anyOf', 'oneOf'].includes(key) && Array.isArray(sub)) out[key] = sub.map(schema);
      else out[key] = sub;
    }
    return out;
  };
  if (!isObj(node)) return JSON.stringify(node ?? null);
  const cached = memo.get(node);
  if (cached !== undefined) return cached;
  const text = JSON.stringify(schema(node));
  memo.set(node, text);
  return text;
}

interface Union { kind: 'oneOf' | 'anyOf'; branches: Json[]; mapping: Map<string, string> }

/** A schema with its allOf members merged in, as far as the rules below need. */
interface Flat {
  enum?: Json[];
  /** The enum may grow in answers (`x-enum-extensible: true`). */
  extensible: boolean;
  nullable: boolean;
  format?: string;
  pattern?: string;
  multipleOf?: number;
  default?: Json;
  properties: Map<string, Json>;
  items?: Json;
  additionalProperties?: Json;
  union?: Union;
  keywords: Map<string, Json>;
  required: Set<string>;
}

/** Keywords json-schema-diff compares by value (besides properties, required, items, additionalProperties). */
const SCALAR_KEYWORDS = ['type', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength',
  'minItems', 'maxItems', 'minProperties', 'maxProperties'];

/** Two schemas that both apply (allOf members saying the same thing once). */
const both = (x: Json | undefined, y: Json | undefined): Json | undefined => (x === undefined ? y : y === undefined ? x : { allOf: [x, y] });

function flatten(doc: Obj, node: Json | undefined, depth = 0): Flat {
  const out: Flat = { nullable: false, extensible: false, properties: new Map(), keywords: new Map(), required: new Set() };
  const schema = resolve(doc, node);
  if (!isObj(schema) || depth > 30) return out;
  for (const member of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const part = flatten(doc, member, depth + 1);
    if (part.enum) out.enum = out.enum ? out.enum.filter((v) => part.enum!.some((w) => JSON.stringify(w) === JSON.stringify(v))) : part.enum;
    out.format ??= part.format;
    out.pattern ??= part.pattern;
    out.multipleOf ??= part.multipleOf;
    out.items = both(out.items, part.items);
    out.additionalProperties = isObj(out.additionalProperties) && isObj(part.additionalProperties) ? both(out.additionalProperties, part.additionalProperties) : out.additionalProperties ?? part.additionalProperties;
    out.union ??= part.union;
    out.extensible ||= part.extensible;
    for (const [key, value] of part.keywords) if (!out.keywords.has(key)) out.keywords.set(key, value);
    for (const name of part.required) out.required.add(name);
    if (part.default !== undefined) out.default ??= part.default;
    for (const [name, sub] of part.properties) out.properties.set(name, out.properties.has(name) ? { allOf: [out.properties.get(name)!, sub] } : sub);
  }
  if (Array.isArray(schema.enum)) out.enum = out.enum ? out.enum.filter((v) => (schema.enum as Json[]).some((w) => JSON.stringify(w) === JSON.stringify(v))) : schema.enum;
  out.nullable = schema.nullable === true;
  if (schema[EXTENSIBLE] === true) out.extensible = true;
  if (typeof schema.format === 'string') out.format = schema.format;
  if (typeof schema.pattern === 'string') out.pattern = schema.pattern;
  if (typeof schema.multipleOf === 'number') out.multipleOf = schema.multipleOf;
  if (schema.default !== undefined) out.default = schema.default;
  out.items = both(out.items, schema.items);
  if (schema.additionalProperties !== undefined) {
    out.additionalProperties = isObj(out.additionalProperties) && isObj(schema.additionalProperties) ? both(out.additionalProperties, schema.additionalProperties) : schema.additionalProperties;
  }
  for (const key of SCALAR_KEYWORDS) if (schema[key] !== undefined) out.keywords.set(key, schema[key]);
  for (const name of Array.isArray(schema.required) ? schema.required : []) if (typeof name === 'string') out.required.add(name);
  for (const [name, sub] of Object.entries(isObj(schema.properties) ? schema.properties : {})) {
    out.properties.set(name, out.properties.has(name) ? { allOf: [out.properties.get(name)!, sub] } : sub);
  }
  for (const kind of ['oneOf', 'anyOf'] as const) {
    const list = schema[kind];
    if (!Array.isArray(list)) continue;
    const mapping = new Map<string, string>();
    const discriminator = isObj(schema.discriminator) ? schema.discriminator : undefined;
    if (discriminator && typeof discriminator.propertyName === 'string') {
      for (const [value, ref] of Object.entries(isObj(discriminator.mapping) ? discriminator.mapping : {})) {
        if (typeof ref === 'string') mapping.set(ref.split('/').pop()!, `${discriminator.propertyName}=${value}`);
      }
      for (const branch of list) {
        const name = refName(branch);
        if (name && !mapping.has(name)) mapping.set(name, `${discriminator.propertyName}=${name}`);
      }
    }
    out.union = { kind, branches: list, mapping };
  }
  return out;
}

/** Variants of two unions paired by discriminator value, else by schema name, else by position. */
function pairBranches(a: Union, b: Union) {
  const key = (union: Union, branch: Json, index: number) => {
    const name = refName(branch);
    return (name && union.mapping.get(name)) ?? name ?? `#${index}`;
  };
  const keysA = a.branches.map((branch, i) => key(a, branch, i));
  const keysB = b.branches.map((branch, i) => key(b, branch, i));
  return {
    pairs: keysA.flatMap((k, i) => (keysB.includes(k) ? [{ key: k, a: a.branches[i], b: b.branches[keysB.indexOf(k)] }] : [])),
    onlyA: keysA.filter((k) => !keysB.includes(k)),
    onlyB: keysB.filter((k) => !keysA.includes(k)),
  };
}

interface Operation { label: string; path: string; method: string; item: Obj; op: Obj }

/** `/a/{id}/b/{x}` and `/a/{key}/b/{y}` are the same route. */
const normalisePath = (route: string) => route.replace(/\{[^}]*\}/g, '{}');

function operations(doc: Obj): Map<string, Operation> {
  const found = new Map<string, Operation>();
  for (const [route, raw] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    const item = resolve(doc, raw);
    if (!isObj(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (isObj(op)) found.set(`${method} ${normalisePath(route)}`, { label: `${method.toUpperCase()} ${route}`, path: route, method, item, op });
    }
  }
  return found;
}

const jsonText = (value: unknown, max = 240) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};
const list = (values: Json[]) => values.map((v) => JSON.stringify(v)).join(', ');

// ---------------------------------------------------------------------------------------------
// The comparison.

/** A schema pair openapi-diff compares, as a synthetic operation; `changed` says how the schemas differ. */
interface Synthetic { id: number; direction: Direction; where: string; a: Json; b: Json; changed: string[] }

class Comparison {
  readonly changes: Change[] = [];
  readonly synthetic: Synthetic[] = [];
  private readonly memoA = new WeakMap<object, string>();
  private readonly memoB = new WeakMap<object, string>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 0;

  constructor(readonly a: Obj, readonly b: Obj) {}

  add(type: ChangeType, code: string, where: string, message: string) {
    this.changes.push({ type, source: 'rules', code, where, message });
  }

  private same(a: Json | undefined, b: Json | undefined) {
    return canonical(this.a, a, this.memoA) === canonical(this.b, b, this.memoB);
  }

  private id(node: Json | undefined) {
    if (!isObj(node)) return -1;
    if (!this.ids.has(node)) this.ids.set(node, this.nextId++);
    return this.ids.get(node)!;
  }

  /** One schema pair: the rules below, and openapi-diff's set comparison (variant by variant). */
  schemas(a: Json | undefined, b: Json | undefined, direction: Direction, where: string) {
    if (a === undefined || b === undefined || this.same(a, b)) return;
    this.walk(a, b, direction, where, '', new Set());
    this.forOpenapiDiff(a, b, direction, where);
  }

  private forOpenapiDiff(a: Json, b: Json, direction: Direction, where: string) {
    if (this.same(a, b)) return;
    const ra = resolve(this.a, a);
    const rb = resolve(this.b, b);
    const fa = flatten(this.a, ra);
    const fb = flatten(this.b, rb);
    const splittable = (schema: Json | undefined, flat: Flat) => isObj(schema) && flat.union && !Array.isArray(schema.allOf) &&
      Object.keys(schema).every((k) => DOC_KEYWORDS.has(k) || k.startsWith('x-') || k === flat.union!.kind);
    if (splittable(ra, fa) && splittable(rb, fb)) {
      // Variants only on one side are the rules' business (walk); paired ones are compared alone.
      for (const pair of pairBranches(fa.union!, fb.union!).pairs) this.forOpenapiDiff(pair.a, pair.b, direction, `${where} [${pair.key}]`);
      return;
    }
    const changed: string[] = [];
    this.delta(a, b, '', changed, new Set());
    // What openapi-diff would find, said here when plain: its set algebra takes many minutes on a
    // large answer full of unions (a Claim) that merely gained a property, or on a request whose
    // strings merely gained a maxLength.
    // (A change json-schema-diff does not see, a format added, leaves `changed` empty: the rules say it.)
    if (onlyNarrows(this.a, a, this.b, b, direction === 'response')) {
      if (changed.length === 0) return;
      if (direction === 'response') this.add('non-breaking', 'response.body.scope.remove', where, `answers fewer kinds of values (changed: ${changed.join('; ')})`);
      else this.add('breaking', 'request.body.scope.remove', where, `refuses values it accepted (changed: ${changed.join('; ')})`);
      return;
    }
    // The other way round: an answer that merely lost properties (a field removed from a payload
    // every event of an object carries, a Claim's or a Policy's among them) admits more values.
    if (direction === 'response' && changed.length && onlyNarrows(this.b, b, this.a, a, true)) {
      this.add('breaking', 'response.body.scope.add', where, `may answer values existing clients do not expect (changed: ${changed.join('; ')})`);
      return;
    }
    this.synthetic.push({ id: this.synthetic.length + 1, direction, where, a, b, changed });
  }

  /** How two schemas differ in what json-schema-diff compares, as `path: what` (a few at most). */
  private delta(a: Json, b: Json, path: string, out: string[], seen: Set<string>) {
    const ra = resolve(this.a, a);
    const rb = resolve(this.b, b);
    const pairKey = `${this.id(ra)}:${this.id(rb)}`;
    if (out.length >= 6 || seen.has(pairKey) || this.same(ra, rb)) return;
    seen.add(pairKey);
    const at = path ? `${path.replace(/^\./, '')}: ` : '';
    const fa = flatten(this.a, ra);
    const fb = flatten(this.b, rb);
    const show = (value: Json | undefined) => (value === undefined ? 'none' : jsonText(value, 80));
    if (Boolean(fa.union) !== Boolean(fb.union)) {
      out.push(`${at}${fa.union ? `${fa.union.kind} of ${fa.union.branches.length} -> one schema` : `one schema -> ${fb.union!.kind} of ${fb.union!.branches.length}`}`);
      return;
    }
    for (const key of SCALAR_KEYWORDS) {
      const before = fa.keywords.get(key);
      const after = fb.keywords.get(key);
      if (JSON.stringify(before) !== JSON.stringify(after)) out.push(`${at}${key} ${show(before)} -> ${show(after)}`);
    }
    if (typeof fa.additionalProperties === 'boolean' || typeof fb.additionalProperties === 'boolean') {
      if (JSON.stringify(fa.additionalProperties) !== JSON.stringify(fb.additionalProperties)) {
        out.push(`${at}additionalProperties ${show(fa.additionalProperties)} -> ${show(fb.additionalProperties)}`);
      }
    }
    const name = (prop: string) => `${path}.${prop}`.replace(/^\./, '');
    for (const prop of fb.required) if (!fa.required.has(prop)) out.push(`${name(prop)}: now required`);
    for (const prop of fa.required) if (!fb.required.has(prop) && fb.properties.has(prop)) out.push(`${name(prop)}: now optional`);
    for (const [prop, sub] of fa.properties) {
      if (fb.properties.has(prop)) this.delta(sub, fb.properties.get(prop)!, `${path}.${prop}`, out, seen);
      else out.push(`${name(prop)}: removed`);
    }
    for (const prop of fb.properties.keys()) if (!fa.properties.has(prop)) out.push(`${name(prop)}: added`);
    if (fa.items !== undefined && fb.items !== undefined) this.delta(fa.items, fb.items, `${path}[]`, out, seen);
    if (isObj(fa.additionalProperties) && isObj(fb.additionalProperties)) this.delta(fa.additionalProperties, fb.additionalProperties, `${path}.*`, out, seen);
    if (fa.union && fb.union) {
      const { pairs, onlyA, onlyB } = pairBranches(fa.union, fb.union);
      for (const pair of pairs) this.delta(pair.a, pair.b, `${path}[${pair.key}]`, out, seen);
      for (const key of onlyA) out.push(`${at}variant ${key} removed`);
      for (const key of onlyB) out.push(`${at}variant ${key} added`);
    }
    out.splice(6);
  }

  /** The rules openapi-diff has no eye for, on two schemas walked side by side. */
  private walk(a: Json, b: Json, direction: Direction, label: string, path: string, seen: Set<string>) {
    const ra = resolve(this.a, a);
    const rb = resolve(this.b, b);
    const pairKey = `${this.id(ra)}:${this.id(rb)}`;
    if (seen.has(pairKey) || this.same(ra, rb)) return;
    seen.add(pairKey);
    const where = path ? `${label}: ${path.replace(/^\./, '')}` : label;
    const fa = flatten(this.a, ra);
    const fb = flatten(this.b, rb);
    const request = direction === 'request';

    if (fa.enum && fb.enum) {
      const has = (values: Json[], v: Json) => values.some((w) => JSON.stringify(w) === JSON.stringify(v));
      const removed = fa.enum.filter((v) => !has(fb.enum!, v));
      const added = fb.enum.filter((v) => !has(fa.enum!, v));
      if (removed.length) {
        this.add(request ? 'breaking' : 'non-breaking', `${direction}.enum.remove`, where,
          request ? `no longer accepts ${list(removed)}` : `no longer answers ${list(removed)}`);
      }
      if (added.length) {
        const grows = !request && fb.extensible;
        this.add(request || grows ? 'non-breaking' : 'breaking', `${direction}.enum.add`, where,
          request ? `also accepts ${list(added)}` : grows ? `may now answer ${list(added)} (an extensible list: clients ignore values they do not know)`
            : `may now answer ${list(added)}, which clients built on the old list do not know`);
      }
    } else if (fa.enum && !fb.enum) {
      this.add(request ? 'non-breaking' : 'breaking', `${direction}.enum.unbounded`, where,
        request ? `no longer limited to ${list(fa.enum)}` : `no longer limited to ${list(fa.enum)}: may answer other values`);
    } else if (!fa.enum && fb.enum) {
      this.add(request ? 'breaking' : 'non-breaking', `${direction}.enum.bounded`, where, `now limited to ${list(fb.enum)}`);
    }

    if (fa.nullable !== fb.nullable) {
      if (request) this.add(fa.nullable ? 'breaking' : 'non-breaking', 'request.nullable', where, fa.nullable ? 'no longer accepts null' : 'now also accepts null');
      else this.add(fb.nullable ? 'breaking' : 'non-breaking', 'response.nullable', where, fb.nullable ? 'may now be null' : 'is no longer null');
    }

    for (const keyword of ['format', 'pattern', 'multipleOf'] as const) {
      const before = fa[keyword];
      const after = fb[keyword];
      if (before === after) continue;
      const what = before === undefined ? `${keyword} ${JSON.stringify(after)} added` : after === undefined ? `${keyword} ${JSON.stringify(before)} removed` : `${keyword} ${JSON.stringify(before)} -> ${JSON.stringify(after)}`;
      // A request keyword added or changed may refuse what was valid; a response one removed or changed may answer what was not.
      // A format widened to one that accepts everything it did (uri -> uri-reference) refuses nothing more.
      const widened = keyword === 'format' && WIDER_FORMATS[String(before)]?.includes(String(after));
      const breaking = request ? after !== undefined && !widened : before !== undefined;
      this.add(breaking ? 'breaking' : 'non-breaking', `${direction}.${keyword}`, where, what);
    }
    if (request && JSON.stringify(fa.default) !== JSON.stringify(fb.default)) {
      this.add('unclassified', 'request.default', where, `default ${jsonText(fa.default ?? null)} -> ${jsonText(fb.default ?? null)} (clients that leave it out get other behaviour)`);
    }

    for (const [name, sub] of fa.properties) {
      if (fb.properties.has(name)) this.walk(sub, fb.properties.get(name)!, direction, label, `${path}.${name}`, seen);
      else if (!request) this.add('breaking', 'response.property.remove', `${label}: ${`${path}.${name}`.replace(/^\./, '')}`, 'property removed: clients reading it get nothing');
    }
    if (fa.items !== undefined && fb.items !== undefined) this.walk(fa.items, fb.items, direction, label, `${path}[]`, seen);
    if (isObj(fa.additionalProperties) && isObj(fb.additionalProperties)) {
      this.walk(fa.additionalProperties, fb.additionalProperties, direction, label, `${path}.*`, seen);
    }
    if (fa.union && fb.union) {
      const { pairs, onlyA, onlyB } = pairBranches(fa.union, fb.union);
      for (const pair of pairs) this.walk(pair.a, pair.b, direction, label, `${path}[${pair.key}]`, seen);
      for (const key of onlyA) {
        this.add(request ? 'breaking' : 'non-breaking', `${direction}.variant.remove`, where,
          request ? `the ${key} variant is no longer accepted` : `the ${key} variant is no longer answered`);
      }
      for (const key of onlyB) {
        this.add(request ? 'non-breaking' : 'breaking', `${direction}.variant.add`, where,
          request ? `a ${key} variant is also accepted` : `may now answer a ${key} variant, which existing clients do not know`);
      }
    }
  }

  // ---- operations --------------------------------------------------------------------------

  operation(oa: Operation, ob: Operation) {
    this.parameters(oa, ob);
    this.requestBody(oa, ob);
    this.responses(oa, ob);
    this.security(oa, ob);
  }

  private parameterMap(doc: Obj, o: Operation) {
    const params = new Map<string, Obj>();
    const placeholders = [...o.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
    for (const raw of [...(Array.isArray(o.item.parameters) ? o.item.parameters : []), ...(Array.isArray(o.op.parameters) ? o.op.parameters : [])]) {
      const p = resolve(doc, raw);
      if (!isObj(p) || typeof p.name !== 'string' || typeof p.in !== 'string') continue;
      const key = p.in === 'path' ? `path#${placeholders.indexOf(p.name)}` : `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
      params.set(key, p);
    }
    return params;
  }

  private parameters(oa: Operation, ob: Operation) {
    const pa = this.parameterMap(this.a, oa);
    const pb = this.parameterMap(this.b, ob);
    const schemaOf = (p: Obj) => (p.schema !== undefined ? p.schema : isObj(p.content) ? Object.values(p.content).map((m) => (isObj(m) ? m.schema : undefined))[0] : undefined);
    for (const [key, a] of pa) {
      const where = `${ob.label} ${a.in} parameter ${String(a.name)}`;
      const b = pb.get(key);
      if (!b) { this.add('breaking', 'request.parameter.remove', where, 'parameter removed: clients that send it are refused or ignored'); continue; }
      if (a.required !== true && b.required === true) this.add('breaking', 'request.parameter.required', where, 'now required');
      if (a.required === true && b.required !== true && a.in !== 'path') this.add('non-breaking', 'request.parameter.optional', where, 'now optional');
      if ((a.style ?? null) !== (b.style ?? null) || (a.explode ?? null) !== (b.explode ?? null)) {
        this.add('breaking', 'request.parameter.serialisation', where, `style/explode ${jsonText([a.style, a.explode])} -> ${jsonText([b.style, b.explode])}`);
      }
      this.schemas(schemaOf(a), schemaOf(b), 'request', where);
    }
    for (const [key, b] of pb) {
      if (pa.has(key)) continue;
      const where = `${ob.label} ${b.in} parameter ${String(b.name)}`;
      if (b.required === true) this.add('breaking', 'request.parameter.add-required', where, 'new required parameter: clients do not send it');
      else this.add('non-breaking', 'request.parameter.add', where, 'new optional parameter');
    }
  }

  private requestBody(oa: Operation, ob: Operation) {
    const a = resolve(this.a, oa.op.requestBody);
    const b = resolve(this.b, ob.op.requestBody);
    const where = `${ob.label} request body`;
    if (!isObj(a) && !isObj(b)) return;
    if (!isObj(a)) {
      if (isObj(b) && b.required === true) this.add('breaking', 'request.body.add-required', where, 'a required request body was added');
      else this.add('non-breaking', 'request.body.add', where, 'an optional request body was added');
      return;
    }
    if (!isObj(b)) { this.add('breaking', 'request.body.remove', where, 'the request body was removed: clients still send one'); return; }
    if (a.required !== true && b.required === true) this.add('breaking', 'request.body.required', where, 'the request body is now required');
    this.content(a.content, b.content, 'request', where);
  }

  private content(a: Json | undefined, b: Json | undefined, direction: Direction, where: string) {
    const ca = isObj(a) ? a : {};
    const cb = isObj(b) ? b : {};
    for (const [type, media] of Object.entries(ca)) {
      const label = type === 'application/json' ? where : `${where} (${type})`;
      if (!(type in cb)) {
        this.add('breaking', `${direction}.media-type.remove`, label, direction === 'request' ? `${type} is no longer accepted` : `${type} is no longer answered`);
        continue;
      }
      const other = cb[type];
      this.schemas(isObj(media) ? media.schema : undefined, isObj(other) ? other.schema : undefined, direction, label);
    }
    for (const type of Object.keys(cb)) {
      if (!(type in ca)) this.add('non-breaking', `${direction}.media-type.add`, `${where} (${type})`, `${type} is ${direction === 'request' ? 'also accepted' : 'also answered'}`);
    }
  }

  private responses(oa: Operation, ob: Operation) {
    const ra = isObj(oa.op.responses) ? oa.op.responses : {};
    const rb = isObj(ob.op.responses) ? ob.op.responses : {};
    for (const [status, rawA] of Object.entries(ra)) {
      const a = resolve(this.a, rawA);
      const b = resolve(this.b, rb[status]);
      if (!isObj(a) || !isObj(b)) continue; // a removed status code is openapi-diff's to report
      const where = `${ob.label} response ${status}`;
      this.content(a.content, b.content, 'response', where);
      const ha = isObj(a.headers) ? a.headers : {};
      const hb = isObj(b.headers) ? b.headers : {};
      for (const [name, rawHeader] of Object.entries(ha)) {
        const header = resolve(this.a, rawHeader);
        const other = resolve(this.b, Object.entries(hb).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1]);
        if (isObj(header) && isObj(other)) this.schemas(header.schema, other.schema, 'response', `${where} header ${name}`);
      }
    }
  }

  private security(oa: Operation, ob: Operation) {
    const alternatives = (doc: Obj, op: Obj): Set<string>[] => {
      const requirements = Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : [];
      if (!requirements.length) return [new Set()];
      return requirements.filter(isObj).map((r) => new Set(Object.entries(r).map(([scheme, scopes]) => `${scheme}${Array.isArray(scopes) && scopes.length ? `(${[...scopes].sort().join(' ')})` : ''}`)));
    };
    const before = alternatives(this.a, oa.op);
    const after = alternatives(this.b, ob.op);
    const describe = (set: Set<string>) => (set.size ? [...set].sort().join(' + ') : 'no credentials');
    for (const credentials of before) {
      // Still works when some alternative now asks for no more than these credentials.
      if (!after.some((needed) => [...needed].every((scheme) => credentials.has(scheme)))) {
        this.add('breaking', 'security.stricter', `${ob.label} security`, `${describe(credentials)} no longer suffices; now: ${after.map(describe).join(' or ')}`);
      }
    }
  }

  securitySchemes() {
    const schemes = (doc: Obj) => (isObj(doc.components) && isObj(doc.components.securitySchemes) ? doc.components.securitySchemes : {});
    const sa = schemes(this.a);
    const sb = schemes(this.b);
    for (const [name, rawA] of Object.entries(sa)) {
      const a = resolve(this.a, rawA);
      const b = resolve(this.b, sb[name]);
      if (!isObj(a)) continue;
      if (!isObj(b)) { this.add('breaking', 'security.scheme.remove', `security scheme ${name}`, 'removed'); continue; }
      for (const key of ['type', 'in', 'name', 'scheme', 'bearerFormat', 'openIdConnectUrl']) {
        if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) this.add('breaking', 'security.scheme.change', `security scheme ${name}`, `${key} ${jsonText(a[key] ?? null)} -> ${jsonText(b[key] ?? null)}`);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// openapi-diff.

/** Each path's operations as openapi-diff reads them here: methods, status codes, response headers. */
function skeletons(doc: Obj): Map<string, { route: string; item: Obj; shape: string }> {
  const found = new Map<string, { route: string; item: Obj; shape: string }>();
  for (const [route, raw] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    const item = resolve(doc, raw);
    if (!isObj(item)) continue;
    const view: Obj = {};
    const shape: Obj = {};
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const responses: Obj = {};
      const statuses: Obj = {};
      for (const [status, rawResponse] of Object.entries(isObj(op.responses) ? op.responses : {})) {
        const response = resolve(doc, rawResponse);
        const headers = isObj(response) && isObj(response.headers) ? response.headers : {};
        responses[status] = { description: 'response', ...(Object.keys(headers).length ? { headers } : {}) };
        statuses[status] = Object.entries(headers).map(([name, header]) => `${name.toLowerCase()}${isObj(resolve(doc, header)) && (resolve(doc, header) as Obj).required === true ? '!' : ''}`).sort();
      }
      view[method] = { responses };
      shape[method] = statuses;
    }
    found.set(normalisePath(route), { route, item: view, shape: JSON.stringify(shape) });
  }
  return found;
}

/**
 * A response schema as clients read it: references inlined (but for cycles) and objects open. A
 * closed object (`additionalProperties: false`) means the server sends nothing else, not that
 * clients refuse more: they ignore what they do not know (the generated SDK does), so a property
 * added to an answer is not breaking. Left closed, openapi-diff would count it as a widening.
 */
function opened(doc: Obj, node: Json | undefined): Json {
  const stack = new Set<string>();
  const schema = (value: Json | undefined): Json => {
    if (!isObj(value)) return value ?? {};
    if (typeof value.$ref === 'string') {
      if (stack.has(value.$ref)) return value;
      stack.add(value.$ref);
      const target = schema(pointer(doc, value.$ref));
      stack.delete(value.$ref);
      return target;
    }
    const out: Obj = {};
    for (const [key, sub] of Object.entries(value)) {
      if (key === 'additionalProperties' && sub === false) continue;
      if (key === 'enum' && value[EXTENSIBLE] === true) continue; // any value, as clients must take
      if (key === 'properties' && isObj(sub)) out[key] = Object.fromEntries(Object.entries(sub).map(([name, prop]) => [name, schema(prop)]));
      else if (['items', 'additionalProperties', 'not'].includes(key) && isObj(sub)) out[key] = schema(sub);
      else if (['allOf', 'anyOf', 'oneOf'].includes(key) && Array.isArray(sub)) out[key] = sub.map(schema);
      else out[key] = sub;
    }
    return out;
  };
  return schema(node);
}

/**
 * What openapi-diff gets of each document: the paths whose operations, status codes or response
 * headers differ (bodies left out), and one synthetic operation `/~N` per schema pair that differs,
 * with the components those refer to. openapi-diff runs json-schema-diff on every body it sees,
 * even absent ones (some 15 ms each), so paths that did not change are left out of both.
 */
function views(a: Obj, b: Obj, synthetic: Synthetic[]): [Obj, Obj] {
  const sa = skeletons(a);
  const sb = skeletons(b);
  const view = (doc: Obj, mine: typeof sa, other: typeof sa, side: 'a' | 'b'): Obj => {
    const paths: Obj = {};
    for (const [key, { route, item, shape }] of mine) if (other.get(key)?.shape !== shape) paths[route] = item;
    for (const entry of synthetic) {
      const schema = entry.direction === 'request' ? entry[side] : opened(doc, entry[side]);
      paths[`/~${entry.id}`] = entry.direction === 'request'
        ? { post: { requestBody: { content: { 'application/json': { schema } } }, responses: { 200: { description: 'synthetic' } } } }
        : { post: { responses: { 200: { description: 'synthetic', content: { 'application/json': { schema } } } } } };
    }
    return { openapi: doc.openapi, info: { title: 'view', version: '0' }, paths, ...(isObj(doc.components) ? { components: doc.components } : {}) };
  };
  return [view(a, sa, sb, 'a'), view(b, sb, sa, 'b')];
}

/** The fields of an openapi-diff result read here. */
interface DiffResult {
  type: ChangeType;
  code: string;
  sourceSpecEntityDetails: { location: string }[];
  destinationSpecEntityDetails: { location: string }[];
  details?: { differenceSchema?: unknown };
}

const CODE_WORDS: Record<string, string> = {
  'path.add': 'path added',
  'path.remove': 'path removed: clients calling it get 404',
  'method.add': 'operation added',
  'method.remove': 'operation removed: clients calling it get 404/405',
  'response.status-code.add': 'status code added',
  'response.status-code.remove': 'status code removed',
  'response.required.header.add': 'required response header added',
  'response.required.header.remove': 'required response header removed',
  'response.optional.header.add': 'optional response header added',
  'response.optional.header.remove': 'optional response header removed',
};

function fromOpenapiDiff(result: DiffResult, routes: string[], synthetic: Map<string, Synthetic>): Change {
  const details = [...result.sourceSpecEntityDetails, ...result.destinationSpecEntityDetails];
  const location = details[0]?.location ?? '';
  // `paths.<route>[.<method>[.responses.<status>[.headers.<name>]]]`, where the route may hold dots.
  const route = routes.filter((r) => location === `paths.${r}` || location.startsWith(`paths.${r}.`)).sort((x, y) => y.length - x.length)[0] ?? '';
  const rest = route ? location.slice(`paths.${route}.`.length).split('.') : [];
  let where = location;
  let message = CODE_WORDS[result.code] ?? result.code;
  const item = synthetic.get(route);
  if (item) {
    where = item.where;
    const difference = item.changed.length ? ` (changed: ${item.changed.join('; ')})` : '';
    if (result.code === 'request.body.scope.remove') message = `refuses values it accepted${difference}`;
    else if (result.code === 'request.body.scope.add') message = `accepts more values${difference}`;
    else if (result.code === 'response.body.scope.add') message = `may answer values existing clients do not expect${difference}`;
    else if (result.code === 'response.body.scope.remove') message = `answers fewer kinds of values${difference}`;
  } else if (route) {
    // paths./x, paths./x.get, paths./x.get.responses.404, paths./x.get.responses.200.headers.Name
    const [method, , status, , header] = rest;
    where = `${method ? method.toUpperCase() : 'path'} ${route}${status ? ` response ${status}` : ''}${header ? ` header ${header}` : ''}`;
  }
  return { type: result.type, source: 'openapi-diff', code: result.code, where, message };
}

// ---------------------------------------------------------------------------------------------

/**
 * What changed from `baseline` to `current` (both OpenAPI 3.1 documents), classified. Throws when a
 * document cannot be converted to 3.0 (ConversionError) or openapi-diff cannot read it.
 */
export async function findBreakingChanges(baseline: Obj, current: Obj): Promise<BreakingReport> {
  const a = toOpenApi30(closeUnevaluated(liftWebhooks(baseline)), { source: 'the baseline' });
  const b = toOpenApi30(closeUnevaluated(liftWebhooks(current)), { source: 'the current contract' });
  const comparison = new Comparison(a, b);
  const before = operations(a);
  const after = operations(b);
  for (const [key, oa] of before) {
    const ob = after.get(key);
    if (ob) comparison.operation(oa, ob);
  }
  comparison.securitySchemes();

  const synthetic = comparison.synthetic;
  if (process.env.CONTRACT_DEBUG) for (const item of synthetic) console.error(`for openapi-diff: ${item.direction} ${item.where} (${item.changed.join('; ')})`);
  const [viewA, viewB] = views(a, b, synthetic);
  const result = await openapiDiff.diffSpecs({
    sourceSpec: { content: JSON.stringify(viewA), location: 'baseline (3.0 view)', format: 'openapi3' },
    destinationSpec: { content: JSON.stringify(viewB), location: 'current (3.0 view)', format: 'openapi3' },
  });
  const byRoute = new Map(synthetic.map((item) => [`/~${item.id}`, item]));
  const routes = [...Object.keys(isObj(a.paths) ? a.paths : {}), ...Object.keys(isObj(b.paths) ? b.paths : {}), ...byRoute.keys()];
  const all: DiffResult[] = [
    ...('breakingDifferences' in result ? result.breakingDifferences : []),
    ...result.nonBreakingDifferences,
    ...result.unclassifiedDifferences,
  ];
  const changes = [...all.map((r) => fromOpenapiDiff(r, routes, byRoute)), ...comparison.changes].map(ofWebhook);
  return {
    breaking: changes.filter((c) => c.type === 'breaking'),
    nonBreaking: changes.filter((c) => c.type === 'non-breaking'),
    unclassified: changes.filter((c) => c.type === 'unclassified'),
  };
}
