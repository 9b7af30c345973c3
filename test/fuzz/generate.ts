import { generateSync } from 'json-schema-faker';
import { Rng } from './prng.js';
import { deref, pathParams, queryParams, type Json, type Operation, type Parameter } from './spec.js';
import type { Validators } from './validators.js';

/**
 * Requests built from an operation's schemas: valid ones (the spec's examples first, then
 * instances faked by json-schema-faker and checked against the schema) and invalid ones made by
 * mutating a valid request one rule at a time (each mutation is checked to really break the schema).
 */

/** Which credentials a request carries. */
/** `apiKeyInstead`: on an operator call, the tenant's Api-Key and a client's token in place of the Operator-Key. */
export type Auth = 'client' | 'noKey' | 'badKey' | 'noToken' | 'badToken' | 'garbageToken' | 'apiKeyInstead';

/**
 * What the oracle expects beyond the rules every answer obeys:
 * conform: only those rules; reject: a 4xx; unauthorized: a 401; authorized: anything but a 401.
 */
export type Expectation = 'conform' | 'reject' | 'unauthorized' | 'authorized';

export type Body = { json: unknown } | { raw: string; contentType: string } | undefined;

export interface FuzzRequest {
  operationId: string;
  /** Position in the operation's plan: with the seed and budget, enough to replay it. */
  index: number;
  category: string;
  label: string;
  expect: Expectation;
  auth: Auth;
  params: Record<string, string>;
  query: Array<[string, string]>;
  body: Body;
  /** Put ids of resources created through the API in the path instead of the generated ones. */
  realIds: boolean;
}

export const HUGE = 100_000;
const FIXED_TODAY = '2024-12-31';

// ---------------------------------------------------------------------------------------------
// Faking valid values

/** Scans a regex for `+`/`*` quantifiers outside character classes and escapes. */
function unboundedQuantifiers(pattern: string): number[] {
  const at: number[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === '\\') { i += 1; continue; }
    if (inClass) { if (c === ']') inClass = false; continue; }
    if (c === '[') inClass = true;
    else if (c === '+' || c === '*') at.push(i);
  }
  return at;
}

/**
 * json-schema-faker pads a `pattern` up to `minLength` with arbitrary characters, which breaks the
 * pattern. Bounding the pattern's own quantifiers by the lengths instead keeps both true.
 */
function boundPattern(pattern: string, minLength = 1, maxLength = minLength + 12): string {
  const at = unboundedQuantifiers(pattern);
  if (!at.length) return pattern;
  const lo = Math.max(1, Math.ceil(minLength / at.length));
  const hi = Math.max(lo, Math.floor((maxLength - 1) / at.length));
  let out = pattern;
  for (const i of [...at].reverse()) out = `${out.slice(0, i)}{${lo},${hi}}${out.slice(i + 1)}`;
  return out;
}

/** Prepares a dereferenced schema for json-schema-faker. */
function forFaker(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(forFaker);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === 'examples' || key === 'enum' || key === 'const' || key === 'default' ? value : forFaker(value);
  }
  if (typeof out.pattern === 'string' && (out.minLength !== undefined || out.maxLength !== undefined)) {
    out.pattern = boundPattern(out.pattern, out.minLength, out.maxLength);
    delete out.minLength;
    delete out.maxLength;
  }
  delete out.discriminator;
  return out;
}

export class Faker {
  private readonly prepared = new Map<Json, Json>();
  constructor(private readonly validators: Validators) {}

  /**
   * A value valid for `schema` (the form with `$ref`s, used to check) faked from `derefed`, or
   * undefined when a few tries all fail the schema.
   */
  fake(rng: Rng, schema: Json, derefed: Json, tries = 6): unknown {
    let prepared = this.prepared.get(derefed);
    if (!prepared) { prepared = forFaker(derefed); this.prepared.set(derefed, prepared); }
    const validate = this.validators.body(schema);
    for (let i = 0; i < tries; i += 1) {
      let value: unknown;
      try {
        value = generateSync(prepared, {
          seed: rng.seedFor(),
          alwaysFakeOptionals: rng.bool(0.3),
          optionalsProbability: rng.pick([0, 0.3, 0.6, 1]),
          useExamplesValue: rng.bool(0.4),
          useDefaultValue: rng.bool(0.3),
          maxDefaultItems: 2,
          minDateTime: '1950-01-01T00:00:00Z',
          maxDateTime: `${FIXED_TODAY}T00:00:00Z`,
          maxDepth: 6,
        });
      } catch {
        continue;
      }
      if (validate(value)) return value;
    }
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Walking a schema alongside a value

/** A schema's rules with `allOf` merged and the `oneOf`/`anyOf` branch the value takes chosen. */
export interface Effective {
  types: string[];
  properties: Record<string, Json>;
  required: string[];
  closed: boolean;
  node: Json;
}

function typesOf(node: Json): string[] {
  if (Array.isArray(node.type)) return node.type;
  if (typeof node.type === 'string') return [node.type];
  if (node.properties || node.required) return ['object'];
  if (node.items) return ['array'];
  if (node.const !== undefined) return [node.const === null ? 'null' : typeof node.const];
  if (Array.isArray(node.enum)) return [...new Set(node.enum.map((v: unknown) => (v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v)))] as string[];
  return [];
}

export function effective(validators: Validators, node: Json, value: unknown, depth = 0): Effective {
  const out: Effective = { types: typesOf(node ?? {}), properties: { ...(node?.properties ?? {}) }, required: [...(node?.required ?? [])], closed: node?.additionalProperties === false || node?.unevaluatedProperties === false, node: { ...(node ?? {}) } };
  if (!node || typeof node !== 'object' || depth > 8) return out;
  const branches: Json[] = node.oneOf ?? node.anyOf ?? [];
  if (branches.length) {
    const prop = node.discriminator?.propertyName;
    const tag = prop && value && typeof value === 'object' ? (value as Json)[prop] : undefined;
    const chosen = branches.find((b) => tag !== undefined && (b.properties?.[prop]?.const === tag || b.properties?.[prop]?.enum?.includes(tag)))
      ?? branches.find((b) => validators.body(b)(value))
      ?? branches.find((b) => typesOf(b).includes(jsonType(value)));
    if (chosen) merge(out, effective(validators, chosen, value, depth + 1));
  }
  for (const part of node.allOf ?? []) merge(out, effective(validators, part, value, depth + 1));
  return out;
}

function merge(into: Effective, from: Effective) {
  if (!into.types.length) into.types = from.types;
  Object.assign(into.properties, from.properties);
  into.required = [...new Set([...into.required, ...from.required])];
  into.closed ||= from.closed;
  for (const key of ['minLength', 'maxLength', 'pattern', 'format', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'uniqueItems', 'items', 'multipleOf']) {
    if (into.node[key] === undefined && from.node[key] !== undefined) into.node[key] = from.node[key];
  }
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const clone = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

function setAt(root: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  if (!path.length) return value;
  const copy = clone(root) as Json;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  const last = path[path.length - 1];
  if (remove) { if (Array.isArray(node)) node.splice(Number(last), 1); else delete node[last]; } else node[last] = value;
  return copy;
}

const showPath = (prefix: string, path: (string | number)[]) =>
  path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : `${acc}.${key}`), prefix);

const BAD_FORMATS: Record<string, string[]> = {
  email: ['not-an-email', 'a@', '@example.com'],
  date: ['2021-13-45', '21/06/1990', 'yesterday'],
  'date-time': ['2021-02-30T25:61:00Z', 'not-a-date-time'],
  time: ['25:61:00'],
  uuid: ['not-a-uuid', '3f6f2b1e-8a4c-4d7e-9b1a'],
  uri: ['not a uri', '://missing-scheme'],
  'uri-reference': ['\\\\bad uri'],
  hostname: ['-bad-.host_name'],
  ipv4: ['999.1.1.1'],
  ipv6: ['not:an:ipv6'],
};

interface Mutation { category: string; label: string; value: unknown; remove?: boolean; path: (string | number)[] }

/** Values that break one rule of a (non-object) schema node. */
function leafMutations(eff: Effective, current: unknown, rng: Rng): Array<Omit<Mutation, 'path'>> {
  const out: Array<Omit<Mutation, 'path'>> = [];
  const n = eff.node;
  const types = eff.types;
  const nullable = types.includes('null');
  const push = (category: string, label: string, value: unknown) => out.push({ category, label, value });
  // Wrong JSON types.
  if (types.length) {
    if (!types.includes('string')) push('wrong-type', 'a string instead', 'not-a-number');
    if (!types.includes('number') && !types.includes('integer')) push('wrong-type', 'a number instead', 12345);
    if (!types.includes('boolean')) push('wrong-type', 'a boolean instead', true);
    if (!types.includes('object')) push('wrong-type', 'an object instead', { unexpected: 'object' });
    if (!types.includes('array')) push('wrong-type', 'an array instead', ['unexpected']);
    if (!nullable) push('wrong-type', 'null instead', null);
  }
  if (types.includes('string')) {
    if (typeof n.minLength === 'number' && n.minLength > 0) push('too-short', `shorter than minLength ${n.minLength}`, 'x'.repeat(n.minLength - 1));
    if (typeof n.maxLength === 'number') push('too-long', `longer than maxLength ${n.maxLength}`, 'x'.repeat(n.maxLength + 1));
    push('huge-string', `a ${HUGE}-character string`, 'x'.repeat(HUGE));
    if (typeof n.format === 'string' && BAD_FORMATS[n.format]) push('bad-format', `bad ${n.format}`, rng.pick(BAD_FORMATS[n.format]));
    if (typeof n.pattern === 'string') {
      let regex: RegExp | undefined;
      try { regex = new RegExp(n.pattern, 'u'); } catch { /* a pattern JS cannot read */ }
      const candidate = ['!!not matching!!', ' ', 'zz', '0', 'ÄÖÜ-✓'].find((s) => regex && !regex.test(s));
      if (candidate !== undefined) push('bad-pattern', `not matching ${n.pattern}`, candidate);
    }
  }
  if (Array.isArray(n.enum)) push('bad-enum', 'a value outside the enum', 'NOT_AN_ALLOWED_VALUE');
  if (n.const !== undefined) push('bad-enum', 'not the const', typeof n.const === 'string' ? `NOT_${n.const}` : 'NOT_THE_CONST');
  if (types.includes('integer') || types.includes('number')) {
    const step = types.includes('integer') ? 1 : 0.5;
    if (typeof n.minimum === 'number') push('out-of-range', `below minimum ${n.minimum}`, n.minimum - step);
    if (typeof n.exclusiveMinimum === 'number') push('out-of-range', `at exclusiveMinimum ${n.exclusiveMinimum}`, n.exclusiveMinimum);
    if (typeof n.maximum === 'number') push('out-of-range', `above maximum ${n.maximum}`, n.maximum + step);
    if (typeof n.exclusiveMaximum === 'number') push('out-of-range', `at exclusiveMaximum ${n.exclusiveMaximum}`, n.exclusiveMaximum);
    if (types.includes('integer') && !types.includes('number')) push('out-of-range', 'a fraction for an integer', 1.5);
    push('out-of-range', 'a huge number', 1e308);
  }
  if (types.includes('array')) {
    if (typeof n.minItems === 'number' && n.minItems > 0) push('bad-array', `fewer than minItems ${n.minItems}`, Array.isArray(current) ? current.slice(0, n.minItems - 1) : []);
    if (typeof n.maxItems === 'number') {
      const item = Array.isArray(current) && current.length ? current[0] : 'x';
      push('bad-array', `more than maxItems ${n.maxItems}`, Array.from({ length: n.maxItems + 1 }, (_, i) => (typeof item === 'string' ? `${item}${i}` : clone(item))));
    }
    if (n.uniqueItems && Array.isArray(current) && current.length) push('bad-array', 'duplicate items', [current[0], current[0]]);
    if (n.uniqueItems && n.items && typesOf(n.items).includes('string')) push('bad-array', 'duplicate items', ['dup', 'dup']);
    const itemTypes = n.items ? typesOf(n.items) : [];
    if (itemTypes.length && !itemTypes.includes('number') && !itemTypes.includes('integer')) push('bad-array', 'an item of the wrong type', [12345]);
  }
  return out;
}

/**
 * Values a schema allows but a server easily trips on: a NUL character (PostgreSQL text cannot
 * hold it), quotes and LIKE wildcards, non-ASCII text, the year 0 and 9999, bounds and integers
 * past 32 and 53 bits. Each is checked against the schema by the caller: only valid ones are kept.
 */
function edgeValues(eff: Effective): Array<{ label: string; value: unknown }> {
  const n = eff.node;
  const out: Array<{ label: string; value: unknown }> = [];
  if (eff.types.includes('string')) {
    out.push({ label: 'a NUL character', value: 'a\u0000b' });
    out.push({ label: 'quotes and an SQL comment', value: `O'Brien"; --` });
    out.push({ label: 'LIKE wildcards and a backslash', value: '%_\\' });
    out.push({ label: 'non-ASCII text', value: '🇬🇭 Ωμέγα العربية' });
    out.push({ label: 'only spaces', value: '   ' });
    if (typeof n.maxLength === 'number' && n.maxLength <= 5000) out.push({ label: `maxLength (${n.maxLength}) multi-byte characters`, value: 'é'.repeat(n.maxLength) });
    if (n.format === 'date') out.push({ label: 'the year 0000', value: '0000-01-01' }, { label: 'the year 9999', value: '9999-12-31' }, { label: 'a leap day', value: '2024-02-29' });
    if (n.format === 'date-time') out.push({ label: 'the year 0000', value: '0000-01-01T00:00:00Z' }, { label: 'the year 9999', value: '9999-12-31T23:59:59Z' });
    if (n.format === 'email') out.push({ label: 'upper case and a +tag', value: 'Kofi.MENSAH+tag@Example.COM' });
  }
  if (eff.types.includes('integer') || eff.types.includes('number')) {
    if (typeof n.minimum === 'number') out.push({ label: `the minimum ${n.minimum}`, value: n.minimum });
    if (typeof n.maximum === 'number') out.push({ label: `the maximum ${n.maximum}`, value: n.maximum });
    out.push({ label: 'zero', value: 0 }, { label: 'minus one', value: -1 }, { label: '2^31 (past int4)', value: 2147483648 },
      { label: '2^53 + 2 (past exact doubles)', value: 9007199254740994 }, { label: '1e300', value: 1e300 });
  }
  return out;
}

function valueEdges(validators: Validators, node: Json, value: unknown, path: (string | number)[], depth = 0): Mutation[] {
  const eff = effective(validators, node, value);
  const out: Mutation[] = edgeValues(eff).map((e) => ({ category: 'edge-value', label: e.label, value: e.value, path }));
  if (depth > 3) return out;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const [name, child] of Object.entries(eff.properties)) out.push(...valueEdges(validators, child, record[name], [...path, name], depth + 1));
  } else if (Array.isArray(value) && value.length && eff.node.items) {
    out.push(...valueEdges(validators, eff.node.items, value[0], [...path, 0], depth + 1));
  }
  return out;
}

/** Every single-rule mutation of a JSON value, walking objects and the first array item. */
function valueMutations(validators: Validators, node: Json, value: unknown, path: (string | number)[], rng: Rng, depth = 0): Mutation[] {
  const eff = effective(validators, node, value);
  const out: Mutation[] = leafMutations(eff, value, rng).map((m) => ({ ...m, path }));
  if (depth > 3) return out;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const name of eff.required) {
      if (name in record) out.push({ category: 'missing-required', label: 'missing (required)', value: undefined, remove: true, path: [...path, name] });
    }
    if (eff.closed) out.push({ category: 'unknown-property', label: 'an unknown property', value: 'surprise', path: [...path, 'fuzzUnknownProperty'] });
    for (const [name, child] of Object.entries(eff.properties)) {
      if (name in record) out.push(...valueMutations(validators, child, record[name], [...path, name], rng, depth + 1));
      else {
        // An optional property that is absent: set it to a value that breaks it.
        out.push(...leafMutations(effective(validators, child, undefined), undefined, rng).map((m) => ({ ...m, path: [...path, name] })));
      }
    }
  } else if (Array.isArray(value) && value.length && eff.node.items) {
    out.push(...valueMutations(validators, eff.node.items, value[0], [...path, 0], rng, depth + 1));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Requests

function toQueryStrings(name: string, value: unknown): Array<[string, string]> {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.map((v) => [name, typeof v === 'string' ? v : JSON.stringify(v)]);
  return [[name, typeof value === 'string' ? value : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)]];
}

export interface PlanOptions {
  /** How many requests the plan holds at most. */
  budget: number;
  /** A request body larger than the server takes (for the 413 probe); 0 leaves the probe out. */
  bodyLimitBytes?: number;
}

export class RequestPlanner {
  private readonly faker: Faker;
  private readonly bodySchema?: Json;
  private readonly bodyDeref?: Json;
  private readonly paramDeref = new Map<Parameter, Json>();

  constructor(private readonly doc: Json, private readonly op: Operation, private readonly validators: Validators, private readonly rng: Rng) {
    this.faker = new Faker(validators);
    this.bodySchema = op.requestBody?.schema;
    this.bodyDeref = this.bodySchema ? deref(doc, this.bodySchema) : undefined;
    for (const p of op.parameters) this.paramDeref.set(p, deref(doc, p.schema));
  }

  private jsonBody = () => Boolean(this.op.requestBody?.contentTypes.includes('application/json'));

  /** Whether a value is valid for a parameter, as the server sees it (a string, coerced). */
  private paramValid(p: Parameter, pairs: Array<[string, string]>): boolean {
    const values = pairs.map(([, v]) => v);
    const schema = this.paramDeref.get(p);
    const isArray = typesOf(schema ?? {}).includes('array');
    const value = isArray ? values : values[0];
    return this.validators.parameters({ type: 'object', properties: { v: p.schema }, required: ['v'] })({ v: value });
  }

  /** A valid value for a parameter: its examples first, then faked. */
  private paramValue(p: Parameter, preferExample: boolean): Array<[string, string]> | undefined {
    const candidates: unknown[] = [];
    if (preferExample) candidates.push(...p.examples);
    for (let i = 0; i < 4; i += 1) candidates.push(this.faker.fake(this.rng, p.schema, this.paramDeref.get(p), 2));
    if (!preferExample) candidates.push(...p.examples);
    if (p.in === 'path' && typesOf(this.paramDeref.get(p) ?? {}).includes('string')) candidates.push(this.rng.uuid());
    for (const candidate of candidates) {
      if (candidate === undefined) continue;
      const pairs = toQueryStrings(p.name, candidate);
      if (pairs.length && pairs.every(([, v]) => v.length > 0 || p.in !== 'path') && this.paramValid(p, pairs)) return pairs;
    }
    return undefined;
  }

  /**
   * A copy of a valid body whose emails and patterned strings (phone numbers, codes) are new, so
   * a request built on the spec's example does not stop at a 409 for a taken email or phone.
   */
  private freshen(value: unknown, node: Json = this.bodyDeref, depth = 0): unknown {
    const eff = effective(this.validators, node, value);
    if (typeof value === 'string') {
      if (eff.node.format === 'email') return `fuzz.${this.rng.hex(10)}@example.com`;
      if (typeof eff.node.pattern === 'string') {
        const leaf = { type: 'string', pattern: eff.node.pattern, minLength: eff.node.minLength, maxLength: eff.node.maxLength };
        const fresh = this.faker.fake(this.rng, leaf, leaf, 4);
        if (typeof fresh === 'string') return fresh;
      }
      return value;
    }
    if (depth > 4) return value;
    if (Array.isArray(value)) return value.map((item) => this.freshen(item, eff.node.items ?? {}, depth + 1));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, eff.properties[key] ? this.freshen(child, eff.properties[key], depth + 1) : child]));
    }
    return value;
  }

  private validBodies(count: number): unknown[] {
    if (!this.bodySchema || !this.jsonBody()) return [];
    const validate = this.validators.body(this.bodySchema);
    const out: unknown[] = [];
    const branches: Json[] = this.bodyDeref.oneOf ?? this.bodyDeref.anyOf ?? [this.bodyDeref];
    for (let i = 0; out.length < count && i < count * 2; i += 1) {
      // Each branch of a oneOf in turn (a discriminated union gets every kind).
      const branch = branches[i % branches.length];
      const value = this.faker.fake(this.rng, this.bodySchema, branch, 4);
      if (value !== undefined && validate(value)) out.push(value);
    }
    return out;
  }

  private request(partial: Partial<FuzzRequest> & Pick<FuzzRequest, 'category' | 'label' | 'expect'>, base?: FuzzRequest): FuzzRequest {
    return {
      operationId: this.op.operationId,
      index: -1,
      auth: 'client',
      params: { ...(base?.params ?? {}) },
      query: [...(base?.query ?? [])],
      body: base?.body,
      realIds: base?.realIds ?? true,
      ...partial,
    };
  }

  /** The ordered plan: credential probes, the spec's examples, then faked valid requests interleaved with mutations. */
  plan(options: PlanOptions): FuzzRequest[] {
    const op = this.op;
    const examples = op.requestBody?.examples.filter((e) => this.bodySchema && this.validators.body(this.bodySchema)(e)) ?? [];
    const bodyNeeded = Boolean(op.requestBody && this.jsonBody());
    const fakes = this.validBodies(Math.max(2, Math.ceil(options.budget / 3)));
    const bodies = [...examples, ...fakes];
    const fallbackBody = bodies[0];
    const params: Record<string, string> = {};
    for (const p of pathParams(op)) params[p.name] = this.paramValue(p, true)?.[0]?.[1] ?? this.rng.uuid();
    const requiredQuery = (preferExample: boolean) => queryParams(op).filter((p) => p.required)
      .flatMap((p) => this.paramValue(p, preferExample) ?? []);
    const base = this.request({
      category: 'example', label: 'the base valid request', expect: 'conform', params, query: requiredQuery(true),
      body: bodyNeeded && fallbackBody !== undefined ? { json: fallbackBody } : undefined,
    });

    // 1. Credentials.
    const probes: FuzzRequest[] = [];
    if (op.security === 'public') probes.push(this.request({ category: 'auth', label: 'no Api-Key on a public operation', expect: 'authorized', auth: 'noKey' }, base));
    else if (op.security === 'operator') {
      probes.push(this.request({ category: 'auth', label: 'no Operator-Key', expect: 'unauthorized', auth: 'noKey' }, base));
      probes.push(this.request({ category: 'auth', label: 'a wrong Operator-Key', expect: 'unauthorized', auth: 'badKey' }, base));
      probes.push(this.request({ category: 'auth', label: "a tenant's Api-Key and a client token instead of the Operator-Key", expect: 'unauthorized', auth: 'apiKeyInstead' }, base));
    } else if (op.security === 'metrics') {
      probes.push(this.request({ category: 'auth', label: 'no metrics token', expect: 'unauthorized', auth: 'noKey' }, base));
      probes.push(this.request({ category: 'auth', label: 'a wrong metrics token', expect: 'unauthorized', auth: 'badKey' }, base));
      probes.push(this.request({ category: 'auth', label: "a tenant's Api-Key and a client token instead of the metrics token", expect: 'unauthorized', auth: 'apiKeyInstead' }, base));
    } else {
      probes.push(this.request({ category: 'auth', label: 'no Api-Key', expect: 'unauthorized', auth: 'noKey' }, base));
      probes.push(this.request({ category: 'auth', label: 'an unknown Api-Key', expect: 'unauthorized', auth: 'badKey' }, base));
    }
    if (op.security === 'bearer' || op.security === 'staff') {
      probes.push(this.request({ category: 'auth', label: 'no bearer token', expect: 'unauthorized', auth: 'noToken' }, base));
      probes.push(this.request({ category: 'auth', label: 'a garbage bearer token', expect: 'unauthorized', auth: 'garbageToken' }, base));
      probes.push(this.request({ category: 'auth', label: 'a well-formed JWT signed with another secret', expect: 'unauthorized', auth: 'badToken' }, base));
    }

    // 2. The spec's own examples, and each query parameter's example on its own.
    const exampleRequests: FuzzRequest[] = [];
    const bodyExamples = examples.length ? examples : bodyNeeded && fallbackBody !== undefined ? [fallbackBody] : [undefined];
    bodyExamples.forEach((example, i) => exampleRequests.push(this.request({
      category: 'example', label: `request body example ${i + 1}`, expect: 'conform', body: example === undefined ? undefined : { json: example },
    }, base)));
    const optionalQuery = queryParams(op).filter((p) => !p.required);
    for (const p of optionalQuery) {
      const pairs = p.examples.length ? this.paramValue(p, true) : undefined;
      if (pairs) exampleRequests.push(this.request({ category: 'example', label: `query ${p.name} example`, expect: 'conform', query: [...base.query, ...pairs] }, base));
    }

    // 3. Faked valid requests.
    const valid: FuzzRequest[] = [];
    const hasInputs = bodyNeeded || op.parameters.length > 0;
    const validCount = hasInputs ? Math.max(fakes.length, Math.ceil(options.budget / 3)) : 1;
    for (let i = 0; i < validCount; i += 1) {
      const query = [...requiredQuery(false)];
      for (const p of optionalQuery) if (this.rng.bool(0.5)) query.push(...(this.paramValue(p, false) ?? []));
      const fakeParams = { ...params };
      for (const p of pathParams(op)) fakeParams[p.name] = this.paramValue(p, false)?.[0]?.[1] ?? this.rng.uuid();
      const body = bodyNeeded ? bodies.length ? { json: this.freshen(fakes.length ? fakes[i % fakes.length] : bodies[i % bodies.length]) } : base.body : undefined;
      valid.push(this.request({ category: 'faked', label: 'a faked valid request', expect: 'conform', query, body, params: fakeParams, realIds: i % 2 === 0 }, base));
    }

    // 4. Mutations, one rule at a time, grouped by kind.
    const groups = new Map<string, FuzzRequest[]>();
    const add = (request: FuzzRequest) => { const list = groups.get(request.category) ?? []; list.push(request); groups.set(request.category, list); };
    // Inputs that once answered 500 here: planned before the rest, so no budget leaves them out.
    const pastFailures: FuzzRequest[] = [];
    const pastFailure = (label: string, payload: string, contentType: string) =>
      pastFailures.push(this.request({ category: 'raw-body', label, expect: 'reject', body: { raw: payload, contentType } }, base));
    if (bodyNeeded) {
      const validate = this.validators.body(this.bodySchema);
      const mutationBases = bodies.length ? bodies.slice(0, 3) : [];
      const seen = new Set<string>();
      for (const original of mutationBases) {
        for (const m of valueMutations(this.validators, this.bodyDeref, original, [], this.rng)) {
          const mutated = setAt(original, m.path, m.value, m.remove);
          if (validate(mutated)) continue; // still valid (an annotation-only format, say): not a mutation
          const label = `${showPath('body', m.path)}: ${m.label}`;
          if (seen.has(label)) continue;
          seen.add(label);
          add(this.request({ category: m.category, label, expect: 'reject', body: { json: mutated } }, base));
        }
        for (const e of valueEdges(this.validators, this.bodyDeref, original, [])) {
          // On a fresh copy: an edge value must reach the handler, not stop at a taken email.
          const edged = setAt(this.freshen(original), e.path, e.value);
          const label = `${showPath('body', e.path)}: ${e.label} (valid)`;
          if (!validate(edged) || seen.has(label)) continue;
          seen.add(label);
          add(this.request({ category: 'edge-value', label, expect: 'conform', body: { json: edged } }, base));
        }
      }
      // Kept in this order (not shuffled): the first ones matter most when the budget is small.
      if (op.requestBody?.required) add(this.request({ category: 'raw-body', label: 'no body at all', expect: 'reject', body: undefined }, base));
      const raw = (label: string, payload: string, contentType: string) =>
        add(this.request({ category: 'raw-body', label, expect: 'reject', body: { raw: payload, contentType } }, base));
      raw('a body that is not JSON', '{"broken": ', 'application/json');
      raw('an empty body with Content-Type application/json', '', 'application/json');
      if (!validate([])) raw('a JSON array for the body', '[]', 'application/json');
      if (!validate(null)) raw('JSON null for the body', 'null', 'application/json');
      if (!validate('text')) raw('a JSON string for the body', '"text"', 'application/json');
      // Parsed fine by JSON.parse, and once took a recursive check down (stack overflow, a 500).
      pastFailure('JSON nested 10 000 levels deep', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, 'application/json');
      pastFailure('JSON arrays nested 10 000 levels deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'application/json');
      const sample = JSON.stringify(fallbackBody ?? {});
      add(this.request({ category: 'content-type', label: 'Content-Type text/plain', expect: 'reject', body: { raw: sample, contentType: 'text/plain' } }, base));
      add(this.request({ category: 'content-type', label: 'Content-Type application/x-www-form-urlencoded', expect: 'reject', body: { raw: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' } }, base));
      add(this.request({ category: 'content-type', label: 'Content-Type application/xml', expect: 'reject', body: { raw: '<a>1</a>', contentType: 'application/xml' } }, base));
      if (options.bodyLimitBytes) {
        add(this.request({ category: 'raw-body', label: `a body over the ${options.bodyLimitBytes}-byte limit`, expect: 'reject', body: { raw: JSON.stringify({ padding: 'x'.repeat(options.bodyLimitBytes + 16) }), contentType: 'application/json' } }, base));
      }
    }
    if (op.requestBody?.multipartParts.length) {
      // A NUL byte in a part's name, filename or value (PostgreSQL text cannot hold it): a 400, never a 500.
      const boundary = 'fuzzboundary7MA4YWxkTrZu0gW';
      const part = (disposition: string, value: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\nContent-Type: application/pdf\r\n\r\n${value}\r\n`;
      const multipart = (label: string, body: string) => pastFailure(label, `${body}--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`);
      const pdf = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF';
      for (const field of op.requestBody.multipartParts) {
        multipart(`multipart: a NUL in the name of part ${field}`, part(`name="${field}\u0000x"; filename="a.pdf"`, pdf));
        multipart(`multipart: a NUL in the filename of part ${field}`, part(`name="${field}"; filename="a\u0000.pdf"`, pdf));
      }
      multipart('multipart: a NUL in a text field\'s value', `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\nbad\u0000value\r\n`);
    }
    for (const p of [...queryParams(op), ...pathParams(op)]) {
      const where = p.in === 'path' ? 'path' : 'query';
      if (p.in === 'query' && p.required) {
        add(this.request({ category: 'missing-query', label: `query ${p.name}: missing (required)`, expect: 'reject', query: base.query.filter(([name]) => name !== p.name) }, base));
      }
      const current = base.query.find(([name]) => name === p.name)?.[1] ?? base.params[p.name];
      const eff = effective(this.validators, this.paramDeref.get(p), current);
      const candidates = leafMutations(eff, current, this.rng)
        .filter((m) => m.value !== null && typeof m.value !== 'object')
        .map((m) => ({ ...m, value: String(m.value) }));
      if (eff.types.some((t) => t === 'integer' || t === 'number')) candidates.push({ category: 'wrong-type', label: 'not a number', value: 'abc' });
      if (eff.types.includes('boolean')) candidates.push({ category: 'wrong-type', label: 'not a boolean', value: 'maybe' });
      if (where === 'query') candidates.push({ category: 'wrong-type', label: 'empty', value: '' });
      for (const e of edgeValues(eff)) {
        const pairs: Array<[string, string]> = [[p.name, String(e.value)]];
        if (!this.paramValid(p, pairs)) continue;
        if (where === 'query') {
          add(this.request({ category: 'edge-value', label: `query ${p.name}: ${e.label} (valid)`, expect: 'conform', query: [...base.query.filter(([name]) => name !== p.name), ...pairs] }, base));
        } else {
          add(this.request({ category: 'edge-value', label: `path ${p.name}: ${e.label} (valid)`, expect: 'conform', params: { ...base.params, [p.name]: String(e.value) }, realIds: false }, base));
        }
      }
      for (const m of candidates) {
        const pairs: Array<[string, string]> = [[p.name, m.value]];
        if (this.paramValid(p, pairs)) continue;
        if (where === 'query') {
          add(this.request({ category: 'bad-query', label: `query ${p.name}: ${m.label}`, expect: 'reject', query: [...base.query.filter(([name]) => name !== p.name), ...pairs] }, base));
        } else if (m.value.length > 0 && m.value.length < 2000) {
          add(this.request({ category: 'bad-path', label: `path ${p.name}: ${m.label}`, expect: 'reject', params: { ...base.params, [p.name]: m.value }, realIds: false }, base));
        }
      }
    }
    // Robustness: an unknown query parameter must not break anything (the answer may be 200 or 400).
    add(this.request({ category: 'unknown-query', label: 'an unknown query parameter', expect: 'conform', query: [...base.query, ['fuzzUnknown', '1']] }, base));

    // Interleave: round-robin over mutation kinds (shuffled within each kind) and valid fakes.
    for (const [kind, list] of groups) if (kind !== 'raw-body') this.rng.shuffle(list);
    const kinds = this.rng.shuffle([...groups.keys()]);
    const mutations: FuzzRequest[] = [];
    for (let round = 0; mutations.length < [...groups.values()].reduce((n, l) => n + l.length, 0); round += 1) {
      for (const kind of kinds) { const item = groups.get(kind)![round]; if (item) mutations.push(item); }
    }
    const rest: FuzzRequest[] = [];
    let v = 0;
    let m = 0;
    while (v < valid.length || m < mutations.length) {
      if (v < valid.length) rest.push(valid[v++]);
      if (m < mutations.length) rest.push(mutations[m++]);
      if (m < mutations.length) rest.push(mutations[m++]);
    }
    const all = [...probes, ...exampleRequests, ...pastFailures, ...rest].slice(0, options.budget);
    all.forEach((request, index) => { request.index = index; });
    return all;
  }
}
