/**
 * The event delivery case of `npm run bench` (scripts/bench/README.md): two API instances
 * (instance.ts, each a process as `npm start` runs one, with its job worker) on the one bench
 * PostgreSQL database, a webhook receiver in this process on 127.0.0.1 that verifies every
 * delivery with the `standardwebhooks` library as an integrator does and answers 200, and `changes`
 * business changes committed through both instances at once: staff approving CASH payments, each
 * paying its invoice in full (transaction.approved and invoice.paid, so two events a change), while
 * both workers deliver. Measured: deliveries per second (from the first event's `createdAt` to the
 * last delivery's 2xx), each delivery's lag from its event's `createdAt` (the change's clock
 * reading, when its request began) to the receiver's 2xx, and each `transaction.approved`'s from
 * the approval's answer (as the driver got it) to the receiver's 2xx: what an integrator waits. Checked: every event the endpoint
 * takes arrives once, verified, and its delivery SUCCEEDED at the first attempt; any miss, repeat
 * or failure flags the case.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { autoPolicyBody, BENCH_EMAIL, BENCH_PASSWORD } from './dataset.js';
import type { InstanceMessage, InstanceOptions } from './instance.js';
import { judgeEvents, type CaseReport, type EventFigures } from './targets.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const staffSeed = JSON.parse(readFileSync(path.join(here, '../../server/platform/db/data/sandbox-staff.json'), 'utf8')) as
  { password: string; staff: { email: string }[] };
/** The sandbox's executive manager: keeps webhook endpoints and approves payments. */
const EXEC = { username: staffSeed.staff.find((s) => s.email.startsWith('exec@'))!.email, password: staffSeed.password };
const ENDPOINT_DESCRIPTION = 'bench receiver';
/** The types the bench endpoint takes: what approving a payment that pays its invoice in full emits. */
const EVENT_TYPES = ['transaction.approved', 'invoice.paid'];
/** Requests in flight at once, spread over the two instances, while preparing and while committing the changes. */
const CONCURRENCY = 8;

export interface EventsOptions {
  databaseUrl: string;
  dataDir: string;
  apiKey: string;
  poolSize: number;
  changes: number;
  pollMs: number;
  smoke: boolean;
}

export const eventsCaseName = (changes: number) => `webhook events, 2 instances (${changes} changes)`;

/** The receiver: each delivery verified, and when its 2xx went (the first one of each webhook-id). */
async function receiver() {
  const received = new Map<string, { count: number; firstAt: number; verified: boolean }>();
  let secret: string | undefined;
  const app = Fastify({ logger: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.post('/hooks', async (request, reply) => {
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    let verified = false;
    try { new Webhook(secret!).verify(request.body as string, headers); verified = true; } catch { /* counted as unverified */ }
    const id = headers['webhook-id'];
    const seen = received.get(id);
    if (seen) { seen.count += 1; seen.verified &&= verified; } else received.set(id, { count: 1, firstAt: Date.now(), verified });
    return reply.code(200).send('ok');
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}/hooks`, received, trust(s: string) { secret = s; }, close: () => app.close() };
}

interface Instance { child: ChildProcess; api: string; stopped: Promise<Extract<InstanceMessage, { kind: 'stopped' }>> }

function startInstance(options: InstanceOptions): Promise<Instance> {
  const child = fork(path.join(here, 'instance.ts'), [JSON.stringify(options)], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  let stopped!: (m: Extract<InstanceMessage, { kind: 'stopped' }>) => void;
  const stoppedMessage = new Promise<Extract<InstanceMessage, { kind: 'stopped' }>>((resolve) => { stopped = resolve; });
  return new Promise((resolve, reject) => {
    child.on('message', (message: InstanceMessage) => {
      if (message.kind === 'ready') resolve({ child, api: message.api, stopped: stoppedMessage });
      else if (message.kind === 'stopped') stopped(message);
      else if (message.kind === 'failed') reject(new Error(message.error));
    });
    child.on('exit', (code) => {
      reject(new Error(`an instance process ended (${code})`));
      stopped({ kind: 'stopped', ran: 0, errors: [`the instance process ended (${code}) before it was stopped`] });
    });
  });
}

async function stopInstance(instance: Instance) {
  if (!instance.child.connected) return instance.stopped;
  instance.child.send({ kind: 'stop' });
  const timeout = new Promise<Extract<InstanceMessage, { kind: 'stopped' }>>((resolve) => {
    setTimeout(() => { instance.child.kill('SIGKILL'); resolve({ kind: 'stopped', ran: 0, errors: ['the instance did not stop within 30 s'] }); }, 30_000).unref();
  });
  return Promise.race([instance.stopped, timeout]);
}

/** Runs `work` over `items`, `concurrency` at a time; answers the results in order. */
async function inTurn<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  }));
  return results;
}

/** The nearest-rank percentile `p` (0..1) of sorted numbers. */
const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export async function eventsCase(options: EventsOptions): Promise<CaseReport> {
  const name = eventsCaseName(options.changes);
  const problems: string[] = [];
  const hook = await receiver();
  const db = new pg.Client({ connectionString: options.databaseUrl });
  await db.connect();
  const jwtSecret = randomBytes(32).toString('hex');
  const instances: Instance[] = [];
  try {
    const starting = await Promise.allSettled([0, 1].map(() => startInstance({
      databaseUrl: options.databaseUrl, dataDir: options.dataDir, jwtSecret, pollMs: options.pollMs, poolSize: options.poolSize,
    })));
    for (const s of starting) if (s.status === 'fulfilled') instances.push(s.value);
    for (const s of starting) if (s.status === 'rejected') throw s.reason;
    /** A call to instance `i % 2`; a non-2xx answer is kept as a problem (the first few, with their bodies) and answers null. */
    const call = async (i: number, method: string, url: string, headers: Record<string, string>, body?: object) => {
      const res = await fetch(`${instances[i % 2].api}${url}`, {
        method, headers: { 'api-key': options.apiKey, ...headers, ...(body && { 'content-type': 'application/json' }) },
        body: body && JSON.stringify(body),
      });
      const text = await res.text();
      if (res.ok) return text ? JSON.parse(text) : {};
      problems.push(`${method} ${url.replace(/[0-9a-f-]{36}/g, '{id}')}: ${res.status} ${text.slice(0, 200)}`);
      return null;
    };
    const bearer = (answer: { data: { accessToken: string } } | null) => ({ authorization: `Bearer ${answer?.data.accessToken}` });
    const client = bearer(await call(0, 'POST', '/auth/login', {}, { username: BENCH_EMAIL, password: BENCH_PASSWORD }));
    const staff = bearer(await call(0, 'POST', '/staff/auth/login', {}, EXEC));
    if (problems.length) throw new Error(`cannot sign in: ${problems.join('; ')}`);
    // A --keep run's database may hold the endpoint of a run before: gone first (its deliveries with it).
    const listed = await call(0, 'GET', '/staff/webhook-endpoints?limit=100', staff);
    for (const old of (listed?.data ?? []) as { id: string; description: string | null }[]) {
      if (old.description === ENDPOINT_DESCRIPTION) await call(0, 'DELETE', `/staff/webhook-endpoints/${old.id}`, staff);
    }

    // Prepared, not measured: a policy and its CASH payment (its invoice in full) per change, waiting for a staff approval.
    const payments = (await inTurn(Array.from({ length: options.changes }), CONCURRENCY, async (_, i) => {
      const policy = await call(i, 'POST', '/client/policies/auto', client, autoPolicyBody(day(10), day(374)));
      if (!policy) return null;
      const { id: invoiceId, amount } = policy.data.invoice as { id: string; amount: number };
      const paid = await call(i, 'POST', '/client/transactions', { ...client, 'idempotency-key': randomUUID() }, { invoiceId, paymentMethod: 'CASH', amount });
      return paid ? paid.data.id as string : null;
    })).filter((id): id is string => id !== null);
    const endpoint = await call(0, 'POST', '/staff/webhook-endpoints', staff, { url: hook.url, description: ENDPOINT_DESCRIPTION, eventTypes: EVENT_TYPES });
    if (!endpoint) throw new Error(`cannot make the endpoint: ${problems.join('; ')}`);
    hook.trust(endpoint.data.secret);

    // Measured: the changes committed through both instances at once, while both workers deliver.
    const started = Date.now();
    /** When the driver had each approval's answer: what a `transaction.approved` delivery's lag from the answer starts at. */
    const answeredAt = new Map<string, number>();
    await inTurn(payments, CONCURRENCY, async (id, i) => {
      if (await call(i, 'POST', `/staff/transactions/${id}/approve`, staff, { notes: 'bench' })) answeredAt.set(id, Date.now());
    });
    const committedMs = Date.now() - started;
    const expected = (await db.query<{ event_id: string; created_at: Date; type: string; object_id: string }>(`select d.event_id, e.created_at, e.type, e.object_id from webhook_deliveries d
      join domain_events e on e.id = d.event_id where d.endpoint_id = $1`, [endpoint.data.id])).rows;
    // Waits while deliveries keep coming: given up after a stall of 30 s (or three polls) with none.
    const stallMs = Math.max(30_000, 3 * options.pollMs);
    for (let seen = -1, since = Date.now(); expected.some((e) => !hook.received.has(e.event_id)) && Date.now() - since < stallMs;) {
      if (hook.received.size !== seen) { seen = hook.received.size; since = Date.now(); }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A worker records its attempt just after the receiver's 2xx (up to 10 at once per instance): waited for, 10 s at most.
    const pending = async () => Number((await db.query<{ n: string }>(`select count(*) as n from webhook_deliveries
      where endpoint_id = $1 and status = 'PENDING'`, [endpoint.data.id])).rows[0].n);
    for (const until = Date.now() + 10_000; await pending() > 0 && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 50));
    const { rows: [{ unsettled }] } = await db.query<{ unsettled: string }>(`select count(*) as unsettled from webhook_deliveries
      where endpoint_id = $1 and (status <> 'SUCCEEDED' or attempts <> 1)`, [endpoint.data.id]);
    await call(0, 'DELETE', `/staff/webhook-endpoints/${endpoint.data.id}`, staff);
    const stopped = await Promise.all(instances.splice(0).map(stopInstance));
    for (const s of stopped) problems.push(...s.errors);

    const got = expected.flatMap((e) => {
      const r = hook.received.get(e.event_id);
      return r ? [{ ...r, lagMs: r.firstAt - e.created_at.getTime(), createdAt: e.created_at.getTime() }] : [];
    });
    const lags = got.map((g) => g.lagMs).sort((a, b) => a - b);
    // From the approval's answer to its transaction.approved's 2xx at the receiver (negative: it arrived first).
    const answerLags = expected.filter((e) => e.type === 'transaction.approved' && hook.received.has(e.event_id) && answeredAt.has(e.object_id))
      .map((e) => hook.received.get(e.event_id)!.firstAt - answeredAt.get(e.object_id)!).sort((a, b) => a - b);
    const from = Math.min(...expected.map((e) => e.created_at.getTime()));
    const to = Math.max(...got.map((g) => g.firstAt));
    const figures: EventFigures = {
      instances: 2, jobPollMs: options.pollMs, changes: payments.length, changesPerSecond: payments.length / (committedMs / 1000),
      events: expected.length, delivered: got.length, missing: expected.length - got.length,
      duplicates: [...hook.received.values()].reduce((n, r) => n + r.count - 1, 0),
      unexpected: [...hook.received.keys()].filter((id) => !expected.some((e) => e.event_id === id)).length,
      unverified: got.filter((g) => !g.verified).length, notSucceededAtFirstAttempt: Number(unsettled),
      seconds: got.length ? (to - from) / 1000 : 0, deliveriesPerSecond: got.length ? got.length / ((to - from) / 1000) : 0,
      lagMs: lags.length ? { p50: percentile(lags, 0.5), p99: percentile(lags, 0.99), max: lags[lags.length - 1] } : null,
      answerLagMs: answerLags.length ? { p50: percentile(answerLags, 0.5), p99: percentile(answerLags, 0.99), max: answerLags[answerLags.length - 1] } : null,
      ranByInstance: stopped.map((s) => s.ran), problems: problems.slice(0, 10),
    };
    return judgeEvents(name, figures, options.smoke);
  } finally {
    await Promise.all(instances.map(stopInstance));
    await hook.close();
    await db.end();
  }
}
