import { checkAnswer } from './check.js';
import { RequestPlanner, type FuzzRequest } from './generate.js';
import { authHeaders, describeHeaders, idOf, parseJson, send, shorten, type Sent } from './http.js';
import { Rng } from './prng.js';
import { collectionPathOf, fuzzContext, idFields, itemGetterFor, ResourceFactory, type FuzzContext } from './resources.js';
import { pathParamNames, pathParams, queryParams, type Operation } from './spec.js';
import type { Client, Target } from './target.js';

/** Runs an operation's plan against a target and checks every answer with the oracle. */

/** A failure the team knows about: reported apart, not failing the run. Always name the bug. */
export interface KnownFailure {
  /** The operation, or a pattern of operations (a bug in shared code shows up in many). */
  operationId: string | RegExp;
  /** Matches the request's label (`body.email: bad email`); any request when left out. */
  label?: RegExp;
  /** Matches one of the problems the oracle reported; any when left out. */
  problem?: RegExp;
  bug: string;
}

export interface FuzzOptions {
  seed: number;
  /** Requests planned per operation (follow-up checks come on top). */
  perOperation: number;
  /** Stop sending once Date.now() passes this (but not before the minimums below are sent). */
  deadline?: number;
  /**
   * Time for the operation's requests, counted from when its plan is built and its first caller
   * signed in (neither is the operation's fault): a deadline of its own, used instead of `deadline`.
   */
  budgetMs?: number;
  /** Requests of each kind sent whatever the time (or all the plan has of that kind, if fewer). */
  minimum?: { conform: number; reject: number };
  knownFailures?: KnownFailure[];
  /** Only this request of the plan (to replay a failure). */
  onlyIndex?: number;
}

export interface Failure {
  operationId: string;
  seed: number;
  perOperation: number;
  index: number;
  category: string;
  label: string;
  expect: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  status: number;
  response: string;
  problems: string[];
  known?: string;
}

export interface OperationReport {
  operationId: string;
  method: string;
  path: string;
  planned: number;
  /** Requests of the plan sent. */
  sent: number;
  /** Of those, requests that had to be accepted (`conform`) and that had to be refused (`reject`). */
  sentByKind: { conform: number; reject: number };
  /** What `minimum` asked of each kind, as far as the plan had them. */
  required: { conform: number; reject: number };
  /** Follow-up requests sent on top (a GET after a POST or a DELETE). */
  followUps: number;
  /** Statuses of the plan's requests. */
  statuses: Record<string, number>;
  failures: Failure[];
  known: Failure[];
  notes: string[];
}

/** A GET without inputs taking a token of this kind, used to see whether a client's (or staff member's) token still works. */
function tokenProbe(ctx: FuzzContext, kind: Operation['security']): Operation | undefined {
  return ctx.ops.find((o) => o.method === 'GET' && o.security === kind && !pathParams(o).length && !queryParams(o).some((p) => p.required));
}

/** Who makes an operation's signed-in calls: a new client, or a staff session for a staff call. */
function newCaller(target: Target, op: Operation): Promise<Client> {
  if (op.security !== 'staff') return target.newClient();
  if (!target.newStaff) throw new Error(`${op.operationId} is a staff call, and this target has no staff`);
  return target.newStaff();
}

export async function fuzzOperation(target: Target, op: Operation, options: FuzzOptions, ctx: FuzzContext = fuzzContext()): Promise<OperationReport> {
  const report: OperationReport = {
    operationId: op.operationId, method: op.method, path: op.path, planned: 0, sent: 0, sentByKind: { conform: 0, reject: 0 },
    required: { conform: 0, reject: 0 }, followUps: 0, statuses: {}, failures: [], known: [], notes: [],
  };
  const planner = new RequestPlanner(ctx.doc, op, ctx.validators, Rng.for(options.seed, op.operationId));
  let plan = planner.plan({ budget: options.perOperation, bodyLimitBytes: target.bodyLimitBytes });
  report.planned = plan.length;
  if (options.onlyIndex !== undefined) plan = plan.filter((r) => r.index === options.onlyIndex);
  const ofKind = (kind: 'conform' | 'reject') => plan.filter((r) => r.expect === kind).length;
  report.required = { conform: Math.min(options.minimum?.conform ?? 0, ofKind('conform')), reject: Math.min(options.minimum?.reject ?? 0, ofKind('reject')) };
  // The most needed kinds first, so a short budget still sends the minimum of each.
  if (options.minimum) {
    const firsts = new Set<FuzzRequest>();
    for (const kind of ['conform', 'reject'] as const) plan.filter((r) => r.expect === kind).slice(0, report.required[kind]).forEach((r) => firsts.add(r));
    plan = [...plan.filter((r) => firsts.has(r)), ...plan.filter((r) => !firsts.has(r))];
  }

  const factory = new ResourceFactory(ctx, target, options.seed);
  const signedIn = op.security === 'bearer' || op.security === 'staff';
  const needsClient = signedIn || pathParams(op).length > 0;
  const probe = tokenProbe(ctx, signedIn ? op.security : 'bearer');
  let client: Client | undefined;
  let realIds: Record<string, string> | undefined;
  const currentClient = async () => {
    if (!client && needsClient) { client = await newCaller(target, op); realIds = undefined; }
    return client;
  };

  const record = (request: FuzzRequest, sent: Sent, problems: string[], checkedOp: Operation = op, who?: Client, followUp = false) => {
    const status = sent.response.statusCode;
    if (followUp) report.followUps += 1;
    else {
      report.sent += 1;
      report.statuses[status] = (report.statuses[status] ?? 0) + 1;
    }
    if (!followUp && (request.expect === 'conform' || request.expect === 'reject')) report.sentByKind[request.expect] += 1;
    if (!problems.length) return;
    const failure: Failure = {
      operationId: checkedOp.operationId,
      seed: options.seed,
      perOperation: options.perOperation,
      index: request.index,
      category: request.category,
      label: request.label,
      expect: request.expect,
      method: sent.method,
      url: sent.url,
      headers: describeHeaders(sent.headers, target, who),
      body: sent.payload === undefined ? undefined : shorten(sent.payload),
      status,
      response: shorten(sent.response.body, 400),
      problems,
    };
    const known = options.knownFailures?.find((k) => (typeof k.operationId === 'string' ? k.operationId === op.operationId : k.operationId.test(op.operationId))
      && (!k.label || k.label.test(request.label))
      && (!k.problem || problems.some((p) => k.problem!.test(p))));
    if (known) report.known.push({ ...failure, known: known.bug });
    else report.failures.push(failure);
  };

  await currentClient();
  const deadline = options.budgetMs !== undefined ? Date.now() + options.budgetMs : options.deadline;
  const minimumSent = () => report.sentByKind.conform >= report.required.conform && report.sentByKind.reject >= report.required.reject;
  for (const request of plan) {
    if (deadline && report.sent > 0 && minimumSent() && Date.now() > deadline) {
      report.notes.push(`time budget reached after ${report.sent} requests of ${plan.length}`);
      break;
    }
    const who = await currentClient();
    let params = request.params;
    let body = request.body;
    if (request.realIds && who && pathParams(op).length) {
      realIds ??= await factory.pathIds(op, who);
      params = { ...params, ...realIds };
    }
    // Valid requests name the client's own resources in `*Id` fields half of the time.
    if (request.realIds && request.expect === 'conform' && body && 'json' in body) {
      const owner = who ?? (idFields(body.json).length ? (client = await target.newClient()) : undefined);
      if (owner) body = { json: await factory.fillIdFields(body.json, owner) };
    }
    const sent = await send(target, ctx.doc, op, { ...request, params, body }, authHeaders(op, request.auth, target, who));
    record(request, sent, checkAnswer(ctx.validators, op, request.expect, sent.response), op, who);
    const status = sent.response.statusCode;
    const ok = status >= 200 && status < 300;

    // Follow-ups that hold across operations, found from the shape of the paths.
    if (ok && request.auth === 'client') await followUps(target, ctx, op, request, sent, params, who, record);

    // A successful change may have spent the client's token (logout, password change, deletion):
    // the next request gets a fresh client (or staff session) unless a GET of the same kind shows
    // the token still works.
    if (signedIn && request.auth === 'client' && ((ok && op.method !== 'GET') || status === 429)) {
      let spent = true;
      if (probe && who && status !== 429) {
        const check = await send(target, ctx.doc, probe, { params: {}, query: [], body: undefined }, authHeaders(probe, 'client', target, who));
        spent = check.response.statusCode === 401;
      }
      if (spent) client = undefined;
    }
    if (ok && op.method === 'DELETE' && who) { factory.forget(who); realIds = undefined; }
  }
  return report;
}

async function followUps(
  target: Target,
  ctx: FuzzContext,
  op: Operation,
  request: FuzzRequest,
  sent: Sent,
  params: Record<string, string>,
  who: Client | undefined,
  record: (request: FuzzRequest, sent: Sent, problems: string[], checkedOp?: Operation, who?: Client, followUp?: boolean) => void,
) {
  // After a DELETE of `/x/{id}` succeeds, `GET /x/{id}` answers 404.
  if (op.method === 'DELETE' && pathParamNames(op.path).length) {
    const getter = ctx.ops.find((o) => o.method === 'GET' && o.path === op.path);
    if (getter) {
      const follow: FuzzRequest = { ...request, label: `${request.label}, then GET of the deleted resource`, expect: 'conform' };
      const again = await send(target, ctx.doc, getter, { params, query: [], body: undefined }, authHeaders(getter, 'client', target, who));
      const problems = checkAnswer(ctx.validators, getter, 'conform', again.response);
      if (again.response.statusCode !== 404) problems.push(`GET after a successful DELETE answered ${again.response.statusCode}, not 404`);
      record(follow, again, problems, op, who, true);
    }
  }
  // After a POST to a collection answers a new resource's id, `GET <collection>/{id}` finds it.
  if (op.method === 'POST') {
    const id = idOf(parseJson(sent.response.body));
    const getter = id ? itemGetterFor(ctx, op.path) : undefined;
    if (id && getter) {
      const [param] = pathParamNames(getter.path).filter((name) => collectionPathOf(getter.path, name) === op.path);
      const follow: FuzzRequest = { ...request, label: `${request.label}, then GET of the created resource`, expect: 'conform' };
      const again = await send(target, ctx.doc, getter, { params: { ...params, [param]: id }, query: [], body: undefined }, authHeaders(getter, 'client', target, who));
      const problems = checkAnswer(ctx.validators, getter, 'conform', again.response);
      if (again.response.statusCode < 200 || again.response.statusCode >= 300) problems.push(`GET of the resource just created (${id}) answered ${again.response.statusCode}`);
      record(follow, again, problems, op, who, true);
    }
  }
}

/** One failure, with everything needed to replay it. */
export function formatFailure(f: Failure): string {
  const lines = [
    `${f.operationId} #${f.index} [${f.category}] ${f.label} (expect: ${f.expect})${f.known ? `  KNOWN: ${f.known}` : ''}`,
    `  ${f.method} ${f.url}`,
    `  headers: ${JSON.stringify(f.headers)}`,
  ];
  if (f.body !== undefined) lines.push(`  body: ${f.body}`);
  lines.push(`  -> ${f.status} ${f.response}`);
  for (const p of f.problems) lines.push(`  ✗ ${p}`);
  lines.push(`  replay: npm run fuzz -- --seed ${f.seed} --per-operation ${f.perOperation} --operation ${f.operationId} --request ${f.index}`);
  return lines.join('\n');
}

export interface RunSummary {
  seed: number;
  operations: number;
  requests: number;
  failures: Failure[];
  known: Failure[];
  reports: OperationReport[];
}

export async function fuzzAll(target: Target, options: FuzzOptions & { operationIds?: string[]; seconds?: number }, ctx: FuzzContext = fuzzContext()): Promise<RunSummary> {
  const selected = ctx.ops.filter((o) => !options.operationIds?.length || options.operationIds.includes(o.operationId));
  const start = Date.now();
  const reports: OperationReport[] = [];
  for (const [i, op] of selected.entries()) {
    // The time left is shared evenly by the operations left.
    const deadline = options.seconds ? Date.now() + (start + options.seconds * 1000 - Date.now()) / (selected.length - i) : options.deadline;
    reports.push(await fuzzOperation(target, op, { ...options, deadline }, ctx));
  }
  return {
    seed: options.seed,
    operations: reports.length,
    requests: reports.reduce((n, r) => n + r.sent, 0),
    failures: reports.flatMap((r) => r.failures),
    known: reports.flatMap((r) => r.known),
    reports,
  };
}
