import { RequestPlanner, type FuzzRequest } from './generate.js';
import { authHeaders, idOf, parseJson, send } from './http.js';
import { Rng } from './prng.js';
import { answersResourceId, loadSpec, operations, pathParamNames, type Json, type Operation } from './spec.js';
import type { Client, Target } from './target.js';
import { validatorsFor, type Validators } from './validators.js';

/**
 * Resources created through the API, found from the shape of the paths: the collection of
 * `/policies/{policyId}` is `/policies`, its POST creates one (when it answers an `id`), and
 * `GET /policies/{policyId}` reads it back. A body field `policyId` names the same collection.
 */

export interface FuzzContext {
  doc: Json;
  ops: Operation[];
  validators: Validators;
}

export function fuzzContext(doc: Json = loadSpec()): FuzzContext {
  return { doc, ops: operations(doc), validators: validatorsFor(doc) };
}

/** `/a/{x}/b/{y}` and `y` → `/a/{x}/b` (the path up to the parameter's segment). */
export function collectionPathOf(route: string, param: string): string | undefined {
  const at = route.indexOf(`/{${param}}`);
  return at < 0 ? undefined : route.slice(0, at) || '/';
}

/** A word for comparing a collection segment with an `*Id` field: lower case, alphanumerics, singular. */
export function normalizeName(text: string): string {
  const t = text.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (t.endsWith('ies')) return `${t.slice(0, -3)}y`;
  if (t.endsWith('sses')) return t.slice(0, -2);
  if (t.endsWith('s') && !t.endsWith('ss')) return t.slice(0, -1);
  return t;
}

export const successSchema = (op: Operation) => op.responses[String(op.successStatus)]?.schema;

/** The POST creating a resource in a collection (it answers the new resource's `id`). */
export function creatorFor(ctx: FuzzContext, collectionPath: string): Operation | undefined {
  return ctx.ops.find((o) => o.method === 'POST' && o.path === collectionPath && o.security !== 'staff' && answersResourceId(ctx.doc, successSchema(o)));
}

/** The GET reading one resource of a collection: `<collection>/{param}`. */
export function itemGetterFor(ctx: FuzzContext, collectionPath: string): Operation | undefined {
  const pattern = new RegExp(`^${collectionPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\{[^}/]+\\}$`);
  return ctx.ops.find((o) => o.method === 'GET' && pattern.test(o.path));
}

/** The collection an `*Id` body field refers to: a creatable collection whose last segment names it. */
export function creatorForIdField(ctx: FuzzContext, field: string): Operation | undefined {
  const wanted = normalizeName(field.replace(/Ids?$/, ''));
  return ctx.ops.find((o) => {
    // Resources are made as a client: staff calls (selling for a client) are not their creators.
    if (o.method !== 'POST' || o.security === 'staff' || !answersResourceId(ctx.doc, successSchema(o))) return false;
    const last = o.path.split('/').filter((s) => s && !s.startsWith('{')).pop() ?? '';
    return normalizeName(last) === wanted;
  });
}

/** Names of the fields of a JSON value called like `*Id` (any depth), with their paths. */
export function idFields(value: unknown, path: string[] = []): Array<{ name: string; path: string[] }> {
  const out: Array<{ name: string; path: string[] }> = [];
  if (Array.isArray(value)) value.slice(0, 1).forEach((item, i) => out.push(...idFields(item, [...path, String(i)])));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (/[a-z0-9]Id$/.test(key) && (typeof child === 'string' || child === null)) out.push({ name: key, path: [...path, key] });
      else out.push(...idFields(child, [...path, key]));
    }
  }
  return out;
}

export function setPath(value: unknown, path: string[], to: unknown): unknown {
  const copy: Json = JSON.parse(JSON.stringify(value));
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path[path.length - 1]] = to;
  return copy;
}

export interface Created {
  op: Operation;
  id: string;
  /** The path parameters the creating POST was called with (its parents). */
  params: Record<string, string>;
  answer: unknown;
}

/** Creates resources through the API for one client, remembering them. */
export class ResourceFactory {
  private readonly cache = new Map<string, Created | null>();
  readonly created: Created[] = [];

  constructor(private readonly ctx: FuzzContext, private readonly target: Target, private readonly seed: number) {}

  /** Valid requests for an operation, examples first (the same plan the fuzzer starts with). */
  validRequests(op: Operation, limit = 4): FuzzRequest[] {
    const planner = new RequestPlanner(this.ctx.doc, op, this.ctx.validators, Rng.for(this.seed, `valid:${op.operationId}`));
    return planner.plan({ budget: 48 }).filter((r) => r.expect === 'conform' && r.auth === 'client').slice(0, limit);
  }

  /** Real ids for an operation's path parameters (parents created first); missing ones stay out. */
  async pathIds(op: Operation, client: Client, depth = 0): Promise<Record<string, string>> {
    const ids: Record<string, string> = {};
    for (const name of pathParamNames(op.path)) {
      const collection = collectionPathOf(op.path, name);
      const creator = collection && creatorFor(this.ctx, collection);
      if (!creator) continue;
      const made = await this.create(creator, client, { ...ids }, depth + 1);
      if (made) ids[name] = made.id;
    }
    return ids;
  }

  /**
   * Fills `*Id` fields of a body with resources of the client, created as needed; `fresh` makes
   * new ones (a resource may take only one of what refers to it, like a policy's pending closure).
   */
  async fillIdFields(body: unknown, client: Client, depth = 0, fresh = false): Promise<unknown> {
    let out = body;
    for (const field of idFields(body)) {
      const creator = creatorForIdField(this.ctx, field.name);
      if (!creator) continue;
      const made = await this.create(creator, client, {}, depth + 1, fresh);
      if (made) out = setPath(out, field.path, made.id);
    }
    return out;
  }

  /**
   * Creates one resource with a creating POST (its spec examples first, then faked bodies), or
   * answers the one made before for this client and these parents. Undefined when none succeeds.
   */
  async create(creator: Operation, client: Client, parents: Record<string, string> = {}, depth = 0, fresh = false): Promise<Created | undefined> {
    const key = `${client.id}|${creator.operationId}|${JSON.stringify(parents)}`;
    if (!fresh && this.cache.has(key)) return this.cache.get(key) ?? undefined;
    if (depth > 4) return undefined;
    let made: Created | null = null;
    const ownParents = { ...(await this.pathIds(creator, client, depth)), ...parents };
    for (const request of this.validRequests(creator)) {
      const body = request.body && 'json' in request.body ? { json: await this.fillIdFields(request.body.json, client, depth, fresh) } : request.body;
      const sent = await send(this.target, this.ctx.doc, creator, { ...request, body, params: { ...request.params, ...ownParents } }, authHeaders(creator, 'client', this.target, client));
      const status = sent.response.statusCode;
      const answer = parseJson(sent.response.body);
      const id = status >= 200 && status < 300 ? idOf(answer) : undefined;
      if (id) { made = { op: creator, id, params: ownParents, answer }; break; }
    }
    this.cache.set(key, made);
    if (made) this.created.push(made);
    return made ?? undefined;
  }

  /** Forgets what was made for a client (after a DELETE, say). */
  forget(client: Client) {
    for (const key of [...this.cache.keys()]) if (key.startsWith(`${client.id}|`)) this.cache.delete(key);
  }
}
