import { isDeepStrictEqual } from 'node:util';
import type { FuzzRequest } from './generate.js';
import { authHeaders, parseJson, send, shorten, type Sent } from './http.js';
import { collectionPathOf, creatorFor, creatorForIdField, itemGetterFor, ResourceFactory, setPath, successSchema, type Created, type FuzzContext } from './resources.js';
import { deref, listDataSchema, pathParamNames, type Json, type Operation } from './spec.js';
import type { Client, Target } from './target.js';

/**
 * The access matrix, generated from the contract: a resource of client A (tenant 1) must be
 * invisible and untouchable for client B (same tenant) and for tenant 2's clients; lists never
 * show another party's rows; a token only works with its own tenant's Api-Key.
 */

export interface Parties {
  /** Tenant 1, the owner of every resource the matrix creates. */
  a: Client;
  /** Tenant 1, another client. */
  b: Client;
  /** Tenant 2's clients (their own Api-Key). */
  c: Client;
  d: Client;
  /** A staff member of tenant 1 (when the target has staff): a client call must refuse their token with 403. */
  staff?: Client;
}

export async function makeParties(target: Target): Promise<Parties> {
  return {
    a: await target.newClient(target.apiKey),
    b: await target.newClient(target.apiKey),
    c: await target.newClient(target.otherApiKey),
    d: await target.newClient(target.otherApiKey),
    staff: await target.newStaff?.(),
  };
}

export interface Finding {
  operationId: string;
  who: string;
  problem: string;
  method: string;
  url: string;
  body?: string;
  status: number;
  response: string;
}

export const formatFinding = (f: Finding) =>
  `${f.operationId} as ${f.who}: ${f.problem}\n  ${f.method} ${f.url}${f.body ? `\n  body: ${f.body}` : ''}\n  -> ${f.status} ${f.response}`;

function finding(op: Operation, who: string, problem: string, sent: Sent): Finding {
  return { operationId: op.operationId, who, problem, method: sent.method, url: sent.url, body: sent.payload === undefined ? undefined : shorten(sent.payload, 300), status: sent.response.statusCode, response: shorten(sent.response.body, 300) };
}

/** Body properties named like `*Id`, at any depth of the schema (through allOf/oneOf/anyOf/items). */
export function bodyIdFields(ctx: FuzzContext, op: Operation): string[] {
  if (!op.requestBody?.schema) return [];
  const found = new Set<string>();
  const walk = (node: Json, depth: number) => {
    if (!node || typeof node !== 'object' || depth > 6) return;
    for (const [name, child] of Object.entries<Json>(node.properties ?? {})) {
      if (/[a-z0-9]Id$/.test(name)) found.add(name);
      walk(child, depth + 1);
    }
    for (const key of ['allOf', 'oneOf', 'anyOf']) for (const part of node[key] ?? []) walk(part, depth + 1);
    if (node.items) walk(node.items, depth + 1);
  };
  walk(deref(ctx.doc, op.requestBody.schema), 0);
  return [...found];
}

export interface IdOperation {
  op: Operation;
  pathParams: string[];
  bodyFields: string[];
}

/**
 * The operations the client matrix judges: everything but staff calls and the platform operator's.
 * Its parties are clients, and tenant 2 has no staff yet; staff calls are checked for another
 * tenant's key below (`checkKeyTokenMismatch`) and for token kinds in test/http/staff-auth.test.ts.
 * The operator's calls belong to no tenant: the matrix checks that no tenant credential opens them.
 */
const clientSide = (ctx: FuzzContext) => ctx.ops.filter((op) => op.security !== 'staff' && op.security !== 'operator');

/** Every operation that takes an id: a path parameter, or a body field named like `*Id`. */
export function idTakingOperations(ctx: FuzzContext): IdOperation[] {
  return clientSide(ctx)
    .map((op) => ({ op, pathParams: pathParamNames(op.path), bodyFields: bodyIdFields(ctx, op) }))
    .filter((c) => c.pathParams.length > 0 || c.bodyFields.length > 0);
}

/** GETs without path parameters whose answer carries an array in `data`. */
export function listOperations(ctx: FuzzContext): Operation[] {
  return clientSide(ctx).filter((op) => op.method === 'GET' && pathParamNames(op.path).length === 0 && listDataSchema(ctx.doc, successSchema(op)));
}

/** Every string anywhere in a JSON value. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => stringsIn(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => stringsIn(v, out));
  return out;
}

/** The largest page a list takes, when it pages with `limit`. */
function widest(op: Operation, ctx: FuzzContext, request: FuzzRequest): Array<[string, string]> {
  const limit = op.parameters.find((p) => p.in === 'query' && p.name === 'limit');
  const max = limit ? deref(ctx.doc, limit.schema)?.maximum : undefined;
  const query = request.query.filter(([name]) => name !== 'limit' && name !== 'page');
  return typeof max === 'number' ? [...query, ['limit', String(max)]] : query;
}

/** One of the owner's resources from the collection's list (GET on the collection path). */
async function firstListed(ctx: FuzzContext, target: Target, owner: Client, collection: string, params: Record<string, string>): Promise<Created | undefined> {
  const lister = ctx.ops.find((o) => o.method === 'GET' && o.path === collection);
  if (!lister) return undefined;
  const sent = await send(target, ctx.doc, lister, { params, query: [], body: undefined }, authHeaders(lister, 'client', target, owner));
  const first = (parseJson(sent.response.body) as { data?: Array<{ id?: unknown }> } | undefined)?.data?.[0];
  return typeof first?.id === 'string' ? { op: lister, id: first.id, params, answer: first } : undefined;
}

export interface IdCheck {
  operationId: string;
  /** What was tried; `skipped` says why nothing could be. */
  checked: string[];
  skipped?: string;
  findings: Finding[];
}

/**
 * Client A's rows for one operation, made by the suite where the contract alone cannot make them
 * (a paid policy, its receipt, a claim, an uploaded document): path parameters, body fields set on
 * the generated body (or a whole body), and the collections the ids belong to (for the re-read).
 */
export interface Seeded {
  params?: Record<string, string>;
  bodyFields?: Record<string, unknown>;
  /** Replaces the generated body. */
  body?: unknown;
  /** Client A's resources the call names, as `[collection path, id]` (their GET re-reads them). */
  owned: Array<[string, string]>;
  /** The ids the owner's answer must name (default: every owned id, for a JSON answer not to a DELETE). */
  named?: string[];
  /**
   * What tenant 2's client gets instead of 404, and why: a body naming tenant 1's product answers
   * 400 for `productId` (no product of that id is on sale to tenant 2) before any id of A's is read.
   */
  otherTenant?: { status: number; message: RegExp };
  /** What else the owner's answer must show; answers a problem, or undefined when it is right. */
  ownerAnswer?: (response: Sent['response']) => string | undefined;
}

async function snapshot(ctx: FuzzContext, target: Target, owner: Client, made: Created): Promise<{ sent?: Sent; body?: unknown }> {
  const getter = itemGetterFor(ctx, made.op.path);
  if (!getter) return {};
  const [param] = pathParamNames(getter.path).filter((name) => collectionPathOf(getter.path, name) === made.op.path);
  const sent = await send(target, ctx.doc, getter, { params: { ...made.params, [param]: made.id }, query: [], body: undefined }, authHeaders(getter, 'client', target, owner));
  return { sent, body: parseJson(sent.response.body) };
}

/**
 * One id-taking operation: A's resources in its path (or `*Id` body fields, or as `seeded` says),
 * called by B and by tenant 2's client: each must answer 404 (a staff token 403), A must find the
 * resources unchanged afterwards, and then A's own call must succeed and name them.
 */
export async function checkIdOperation(
  ctx: FuzzContext, target: Target, parties: Parties, entry: IdOperation, factory: ResourceFactory, seeded?: Seeded,
): Promise<IdCheck> {
  const { op } = entry;
  const result: IdCheck = { operationId: op.operationId, checked: [], findings: [] };
  const owner = parties.a;
  const used: Created[] = [];
  const params: Record<string, string> = {};
  const [valid] = factory.validRequests(op, 1);
  if (!valid) { result.skipped = 'no valid request could be built'; return result; }
  let body = valid.body && 'json' in valid.body ? valid.body.json : undefined;
  if (seeded) {
    Object.assign(params, seeded.params);
    if (seeded.body !== undefined) body = seeded.body;
    for (const [field, value] of Object.entries(seeded.bodyFields ?? {})) body = { ...(body as object), [field]: value };
    for (const [collection, id] of seeded.owned) used.push({ op: { path: collection } as Operation, id, params: {}, answer: null });
  } else {
    for (const name of entry.pathParams) {
      const collection = collectionPathOf(op.path, name)!;
      const creator = creatorFor(ctx, collection);
      // Nothing creates it (domain events do, like notifications): take one of A's from the list.
      const made = creator ? await factory.create(creator, owner, { ...params }, 0, true) : await firstListed(ctx, target, owner, collection, params);
      if (!made) {
        result.skipped = creator
          ? `${creator.operationId} could not create {${name}} as client A`
          : `no POST ${collection} answering an id, and no list of A's there, to find {${name}} with`;
        return result;
      }
      params[name] = made.id;
      used.push(made);
    }
    for (const field of entry.bodyFields) {
      const creator = creatorForIdField(ctx, field);
      if (!creator || body === undefined) continue;
      const made = await factory.create(creator, owner, {}, 0, true);
      if (!made) continue;
      used.push(made);
      body = setBodyField(body, field, made.id);
    }
  }
  if (!used.length && !seeded) { result.skipped = `none of ${[...entry.pathParams.map((p) => `{${p}}`), ...entry.bodyFields].join(', ')} names a collection client A can create in`; return result; }

  const before = await Promise.all(used.map((made) => snapshot(ctx, target, owner, made)));
  const request = { ...valid, params: { ...valid.params, ...params }, body: body === undefined ? valid.body : { json: body } };
  const intruders: Array<[string, Client, number, RegExp?]> = [['client C of tenant 2', parties.c, seeded?.otherTenant?.status ?? 404, seeded?.otherTenant?.message]];
  // B shares A's tenant: only an operation that knows its caller (a bearer one) can tell them apart,
  // and only for resources a client owns; the tenant's own (`x-owner: tenant`, products) are B's too.
  if (op.security === 'bearer' && op.owner === 'client') intruders.unshift(['client B of the same tenant', parties.b, 404]);
  // A staff token is the wrong kind of token for a client call, whoever's resource it names.
  if (op.security === 'bearer' && parties.staff) intruders.push(["a staff member of A's tenant", parties.staff, 403]);
  for (const [who, intruder, expected, message] of intruders) {
    const sent = await send(target, ctx.doc, op, request, authHeaders(op, 'client', target, intruder));
    result.checked.push(`${op.method} ${sent.url} as ${who} -> ${sent.response.statusCode}`);
    if (sent.response.statusCode !== expected) result.findings.push(finding(op, who, `answered ${sent.response.statusCode} for client A's resource, not ${expected}`, sent));
    else if (message && !message.test(String((parseJson(sent.response.body) as Json)?.message))) result.findings.push(finding(op, who, `answered ${expected} but not ${message}`, sent));
  }
  const after = await Promise.all(used.map((made) => snapshot(ctx, target, owner, made)));
  used.forEach((made, i) => {
    const [was, now] = [before[i], after[i]];
    if (!was.sent || !now.sent) return;
    if (now.sent.response.statusCode !== was.sent.response.statusCode || !isDeepStrictEqual(now.body, was.body)) {
      result.findings.push(finding(op, 'client A (re-reading)', `client A's resource ${made.id} changed after the others' calls`, now.sent));
    }
  });

  // The positive control: the same call by the owner succeeds and answers about the owner's rows,
  // so the 404s above are the others being refused, not a request that could never work.
  const mine = await send(target, ctx.doc, op, request, authHeaders(op, 'client', target, owner));
  const status = mine.response.statusCode;
  result.checked.push(`${op.method} ${mine.url} as client A (the owner) -> ${status}`);
  if (status < 200 || status >= 300) {
    result.findings.push(finding(op, 'client A (the owner)', `answered ${status} to the owner, not 2xx`, mine));
    return result;
  }
  const answer = parseJson(mine.response.body);
  const named = seeded?.named ?? (op.method === 'DELETE' || answer === undefined ? [] : used.map((made) => made.id));
  const strings = new Set(stringsIn(answer));
  const missing = named.filter((id) => !strings.has(id));
  if (missing.length) result.findings.push(finding(op, 'client A (the owner)', `the owner's answer does not name ${missing.join(', ')}`, mine));
  const wrong = seeded?.ownerAnswer?.(mine.response);
  if (wrong) result.findings.push(finding(op, 'client A (the owner)', wrong, mine));
  return result;
}

function setBodyField(body: unknown, field: string, id: string): unknown {
  let out = body;
  const visit = (node: unknown, path: string[]) => {
    if (Array.isArray(node)) node.slice(0, 1).forEach((item, i) => visit(item, [...path, String(i)]));
    else if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if (key === field) out = setPath(out, [...path, key], id);
        else visit(child, [...path, key]);
      }
    }
  };
  visit(body, []);
  return out;
}

export interface ListCheck {
  operationId: string;
  checked: string[];
  findings: Finding[];
  /** Client A's own answer: how many rows, and how many hold one of A's markers (the positive control). */
  owner?: { status: number; rows: number; marked: number };
}

/**
 * A list operation, called by the parties other than A: no row may hold one of A's markers
 * (A's account id, username and the ids of resources A created). B is asked only for bearer
 * lists; an Api-Key-only list shows tenant-wide data, which A's own tenant may see.
 */
export async function checkListIsolation(ctx: FuzzContext, target: Target, parties: Parties, op: Operation, markers: string[], factory: ResourceFactory): Promise<ListCheck> {
  const result: ListCheck = { operationId: op.operationId, checked: [], findings: [] };
  const [valid] = factory.validRequests(op, 1);
  if (!valid) return result;
  const intruders: Array<[string, Client]> = [['client C of tenant 2', parties.c], ['client D of tenant 2', parties.d]];
  if (op.security === 'bearer') intruders.unshift(['client B of the same tenant', parties.b]);
  const wanted = new Set(markers);
  // The positive control: what A itself sees, so "no row of A's" means the others were kept out.
  const mine = await send(target, ctx.doc, op, { ...valid, query: widest(op, ctx, valid) }, authHeaders(op, 'client', target, parties.a));
  const mineRows: unknown[] = (parseJson(mine.response.body) as Json)?.data ?? [];
  result.owner = { status: mine.response.statusCode, rows: Array.isArray(mineRows) ? mineRows.length : 0,
    marked: Array.isArray(mineRows) ? mineRows.filter((row) => stringsIn(row).some((s) => wanted.has(s))).length : 0 };
  result.checked.push(`${op.method} ${mine.url} as client A (the owner) -> ${mine.response.statusCode}, ${result.owner.rows} rows, ${result.owner.marked} of A's`);
  for (const [who, intruder] of intruders) {
    const sent = await send(target, ctx.doc, op, { ...valid, query: widest(op, ctx, valid) }, authHeaders(op, 'client', target, intruder));
    const answer = parseJson(sent.response.body) as Json;
    const rows: unknown[] = Array.isArray(answer?.data) ? answer.data : [];
    result.checked.push(`${op.method} ${sent.url} as ${who} -> ${sent.response.statusCode}, ${rows.length} rows`);
    if (sent.response.statusCode < 200 || sent.response.statusCode >= 300) {
      result.findings.push(finding(op, who, `the list answered ${sent.response.statusCode}`, sent));
      continue;
    }
    rows.forEach((row, i) => {
      const leaked = stringsIn(row).filter((s) => wanted.has(s));
      if (leaked.length) result.findings.push(finding(op, who, `row ${i} holds client A's ${[...new Set(leaked)].join(', ')}`, sent));
    });
  }
  return result;
}

/**
 * A token of tenant 1 sent with tenant 2's Api-Key: every operation that takes the token (a
 * client's, or a staff member's for a staff call) answers 401. `client` should be one of tenant 1
 * made for this check, of the operation's kind (a wrong 2xx may spend its token).
 */
export async function checkKeyTokenMismatch(ctx: FuzzContext, target: Target, client: Client, op: Operation, factory: ResourceFactory): Promise<Finding[]> {
  if (op.security !== 'bearer' && op.security !== 'staff') return [];
  const [valid] = factory.validRequests(op, 1);
  if (!valid) return [];
  const headers = authHeaders(op, 'client', target, client, target.otherApiKey);
  const sent = await send(target, ctx.doc, op, valid, headers);
  const whose = op.security === 'staff' ? "a staff member's token" : "client A's token";
  return sent.response.statusCode === 401 ? [] : [finding(op, `${whose} with tenant 2's Api-Key`, `answered ${sent.response.statusCode}, not 401`, sent)];
}
