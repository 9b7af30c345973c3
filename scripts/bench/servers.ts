/**
 * The bench's server process (started by scripts/bench/index.ts, spoken to over IPC): migrates and
 * seeds the bench database, loads the dataset (dataset.ts) unless it is already there, then listens
 * with the API as `npm start` builds it (TRUST_PROXY on: the bench's callers each bring their own
 * X-Forwarded-For, as clients behind a load balancer do) and with the baseline: a bare Fastify
 * route answering one primary-key SELECT through the same driver (pg or PGlite). Both in this
 * process, so the embedded database (one process only) works too; the bench loads one at a time.
 *
 * Run twice: `load` (then exits: { loaded }), and `serve`, so the API's process holds nothing the
 * loader used (its RSS is the export case's measure); `serve` sends { ready, api, baseline,
 * fixtures } to its parent, then waits to be told to stop.
 */
import type { AddressInfo } from 'node:net';
import { openSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../server/app/app.js';
import { logDestination } from '../../server/app/request-log.js';
import { boundHeapGrowth } from '../../server/platform/memory.js';
import { hashPassword } from '../../server/platform/auth/passwords.js';
import { loadConfig } from '../../server/platform/config.js';
import { openDatabase } from '../../server/platform/db/database.js';
import { migrateToLatest } from '../../server/platform/db/migrate.js';
import { encodeCursor } from '../../server/platform/export/listing.js';
import { seedSandbox } from '../../server/platform/db/seed.js';
import {
  BENCH_TOKEN_TTL_SECONDS,
  AUTO_PRODUCTS, autoPolicyBody, BENCH_EMAIL, BENCH_PASSWORD, loadClients, loadNotifications, loadPolicies, loadTenants, STATES, type DatasetOptions,
} from './dataset.js';

export interface ServerOptions {
  /** `load`: migrate, seed and load the dataset, then exit; `serve`: listen (a process with nothing else in its memory). */
  role: 'load' | 'serve';
  databaseUrl?: string;
  dataDir: string;
  dataset: DatasetOptions;
  poolSize: number;
  /** The API's JWT secret: the same for every serving process of a run, so the bench client's token works on each. */
  jwtSecret: string;
}

export interface Fixtures {
  apiKey: string;
  productId: string;
  /** Some of the bench client's policies, invoices (unpaid) and every invoice id to read. */
  policyIds: string[];
  unpaidInvoiceIds: string[];
  invoiceIds: string[];
  /** Usernames of clients of the sandbox tenant (the bench client first), all with BENCH_PASSWORD. */
  usernames: string[];
  password: string;
  /**
   * The filtered list: its filters, how many of the bench client's policies match them, and the
   * cursor (`after`) of the row before its last page of `deepLimit` rows.
   */
  listFilter: { state: string; productId: string; startDate: [string, string]; matching: number; deepLimit: number; deepCursor: string | null };
  clientPolicies: number;
}

/** One statement as the API sent it through pg: its text, values and, when prepared, its name. */
export interface Statement { name?: string; text: string; values: unknown[] }

/**
 * What `capture` recorded of one request of a case (PostgreSQL only): the statements the API sent
 * for it, in order, and its answer; the same-SQL route `/same/<id>` now runs them and answers it.
 */
export interface Captured {
  id: number;
  status: number;
  /** The answer's bytes as the API sent them, and as the route sends them (JSON.stringify of the parsed answer). */
  answerBytes: number;
  routeAnswerBytes: number;
  statements: Statement[];
  /** How many of the values equal the request's key (the id in its path), replaced by each baseline request's own. */
  keyedValues: number;
}

export type ServerMessage =
  | { kind: 'progress'; text: string }
  | { kind: 'loaded'; loadedInMs: number | null }
  | { kind: 'count'; statements: number | null }
  | { kind: 'plans'; plans: string[] | null }
  | { kind: 'captured'; captured: Captured | null; error?: string }
  | { kind: 'ready'; api: string; baseline: string; fixtures: Fixtures }
  | { kind: 'failed'; error: string };

const send = (message: ServerMessage) => process.send!(message);
const options = JSON.parse(process.argv[2]) as ServerOptions;

const config = {
  // The bench's tokens are signed once and must outlast the run (a large one takes over 15 minutes,
  // the default lifetime): expiry is not what it measures.
  ...loadConfig({ ...process.env, DATA_DIR: options.dataDir, JWT_SECRET: options.jwtSecret, JWT_TTL_SECONDS: BENCH_TOKEN_TTL_SECONDS, LOG_LEVEL: 'silent',
    JOB_POLL_INTERVAL_MS: '0' }),
  port: 0,
  host: '127.0.0.1',
  // The bench's callers each bring their own X-Forwarded-For, as clients behind a load balancer do.
  trustProxy: true,
};
// Statements sent to PostgreSQL by this process (BEGIN and COMMIT included): the parent reads the
// count around a few requests made one after the other, to give each case its round trips.
let statements = 0;
// While `recording`, the statements themselves (the parent asks for their plans: `plans`; the
// same-SQL baseline is made of them: `capture`). `name` when the API sent it prepared.
let recording: Statement[] | undefined;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  statements += 1;
  if (recording) {
    // A statement comes as text and values, or (prepared: server/platform/db/database.ts) as { name, text, values }.
    const [first, second] = args as [unknown, unknown];
    if (typeof first === 'string') recording.push({ text: first, values: (second as unknown[] | undefined) ?? [] });
    else if (first && typeof first === 'object' && typeof (first as { text?: unknown }).text === 'string') {
      const { name, text, values } = first as { name?: string; text: string; values?: unknown[] };
      recording.push({ ...(name ? { name } : {}), text, values: values ?? [] });
    }
  }
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each SELECT recorded, as PostgreSQL plans it with the same values:
 * what the note of a list case shows (an index behind every filter, no sequential scan of a big table).
 */
async function plansOf(recorded: { text: string; values: unknown[] }[]): Promise<string[]> {
  const plans: string[] = [];
  for (const { text, values } of recorded) {
    if (!/^\s*select\b/i.test(text)) continue;
    const { rows } = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`explain (analyze, buffers) ${text}`, values));
    plans.push([text.replace(/\s+/g, ' '), ...rows.map((row) => `  ${Object.values(row)[0]}`)].join('\n'));
  }
  return plans;
}

const database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir, poolSize: options.poolSize });
const { db } = database;

/** The filtered list's page size. */
const LIST_LIMIT = 20;

function dayOffset(days: number) { return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10); }

/** The dataset, unless this database already holds one of the same shape (a --keep run before). */
async function load(): Promise<number | null> {
  await migrateToLatest(db);
  const { tenantId } = await seedSandbox(db, config.sandboxApiKey);
  await sql`create table if not exists bench_meta (options jsonb not null)`.execute(db);
  const previous = await sql<{ options: DatasetOptions }>`select options from bench_meta`.execute(db);
  if (previous.rows.length > 0) {
    const same = (Object.keys(options.dataset) as (keyof DatasetOptions)[]).every((k) => previous.rows[0].options[k] === options.dataset[k]);
    if (same) return null;
    throw new Error(`the bench database holds another dataset (${JSON.stringify(previous.rows[0].options)}); run without --keep once to replace it`);
  }
  const started = performance.now();
  const { dataset } = options;
  send({ kind: 'progress', text: `loading ${dataset.tenants} tenants, ${dataset.clients} clients, ${dataset.policies} policies` });
  const tenantIds = await loadTenants(db, tenantId, dataset.tenants);
  await loadClients(db, tenantIds, dataset.clients, await hashPassword(BENCH_PASSWORD));

  // The template: one AUTO policy made through the API by the bench client, so its columns are the API's own.
  const app = await buildApp({ config, db, logger: false });
  const headers = { 'api-key': config.sandboxApiKey };
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', headers, payload: { username: BENCH_EMAIL, password: BENCH_PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`bench login: ${login.statusCode} ${login.body}`);
  const token = login.json().data.accessToken as string;
  const created = await app.inject({
    method: 'POST', url: '/api/v1/client/policies/auto', headers: { ...headers, authorization: `Bearer ${token}` },
    payload: autoPolicyBody(dayOffset(10), dayOffset(374)),
  });
  if (created.statusCode !== 201) throw new Error(`template policy: ${created.statusCode} ${created.body}`);
  await app.close();
  const templateId = created.json().data.id as string;
  const { rows: [{ last }] } = await sql<{ last: string }>`select coalesce(max(last_value), 0) as last from tenant_sequences`.execute(db);

  await loadPolicies(db, templateId, dataset, Number(last), (done) => {
    send({ kind: 'progress', text: `${done} of ${dataset.policies} policies (${((performance.now() - started) / 1000).toFixed(0)} s)` });
  });
  await loadNotifications(db, 3, 200);
  send({ kind: 'progress', text: 'analyze' });
  // As autovacuum would have by now: the visibility map lets the list counts read their index only.
  await sql`vacuum analyze`.execute(db);
  await sql`insert into bench_meta (options) values (${JSON.stringify(dataset)})`.execute(db);
  return performance.now() - started;
}

async function fixtures(): Promise<Fixtures> {
  const bench = await db.selectFrom('clients').select(['id', 'tenant_id']).where('email', '=', BENCH_EMAIL).executeTakeFirstOrThrow();
  const policyIds = (await db.selectFrom('policies').select('id').where('client_id', '=', bench.id).orderBy('created_at', 'desc').limit(2000).execute())
    .map((r) => r.id);
  const invoiceIds = (await db.selectFrom('invoices').select('id').where('client_id', '=', bench.id).limit(2000).execute()).map((r) => r.id);
  const unpaidInvoiceIds = (await sql<{ id: string }>`select i.id from invoices i where i.client_id = ${bench.id}::uuid
      and not exists (select 1 from transactions t where t.invoice_id = i.id) limit 5000`.execute(db)).rows.map((r) => r.id);
  const usernames = (await db.selectFrom('clients').select('email').where('tenant_id', '=', bench.tenant_id).where('email', 'is not', null)
    .orderBy('email').limit(5000).execute()).map((r) => r.email!);
  const startDate: [string, string] = [dayOffset(-365), dayOffset(0)];
  const matchingPolicies = sql`from policies
    where client_id = ${bench.id}::uuid and state = ${STATES[0]} and product_id = ${AUTO_PRODUCTS[0]}::uuid
      and start_date between ${startDate[0]}::date and ${startDate[1]}::date`;
  const { rows: [{ matching }] } = await sql<{ matching: string }>`select count(*) as matching ${matchingPolicies}`.execute(db);
  // The row before the last page, its cursor made as the API makes one.
  const beforeLast = Math.ceil(Number(matching) / LIST_LIMIT) * LIST_LIMIT - LIST_LIMIT - 1;
  const { rows: [last] } = beforeLast < 0 ? { rows: [] } : await sql<{ created_at: string; id: string }>`select created_at::text as created_at, id
    ${matchingPolicies} order by created_at desc, id desc offset ${beforeLast} limit 1`.execute(db);
  return {
    apiKey: config.sandboxApiKey, productId: AUTO_PRODUCTS[0], policyIds, unpaidInvoiceIds, invoiceIds,
    usernames: [BENCH_EMAIL, ...usernames.filter((u) => u !== BENCH_EMAIL)], password: BENCH_PASSWORD,
    listFilter: {
      state: STATES[0], productId: AUTO_PRODUCTS[0], startDate, matching: Number(matching), deepLimit: LIST_LIMIT,
      deepCursor: last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
    },
    clientPolicies: options.dataset.clientPolicies,
  };
}

/** The same-SQL baselines registered so far (`capture`), by id. */
const sameSql = new Map<number, { statements: Statement[]; key: string | null; answer: unknown }>();

/**
 * The baselines: one primary-key SELECT of a product through the same driver, answered as JSON,
 * nothing else; and (PostgreSQL) `/same/<id>?key=K`, the statements one request of a case sent
 * (captured), run in order on one connection of a pool of the same size, with the values that were
 * that request's key replaced by K, answered with JSON.stringify of that request's answer.
 */
async function baseline() {
  const app = Fastify({ logger: false });
  // What this process (the API's, too) holds now, for the export case: its RSS alone does not say
  // whether it is live objects, the heap's free room, or memory outside the heap.
  app.get('/memory', async () => {
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    return { rss, heapTotal, heapUsed, external, arrayBuffers, newSpace: newSpace?.space_size ?? null };
  });
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize });
    app.addHook('onClose', () => pool.end());
    app.get('/products/:id', async (request) => {
      const { rows } = await pool.query('select * from products where id = $1', [(request.params as { id: string }).id]);
      return { data: rows[0] };
    });
    app.get('/same/:id', async (request, reply) => {
      const same = sameSql.get(Number((request.params as { id: string }).id));
      if (!same) return reply.code(404).send();
      const key = (request.query as { key?: string }).key;
      const client = await pool.connect();
      try {
        for (const { name, text, values } of same.statements) {
          const bound = same.key !== null && key !== undefined ? values.map((v) => (v === same.key ? key : v)) : values;
          // Prepared under the API's own name, as the API's connections keep them (per connection).
          await client.query(name ? { name, text, values: bound } : { text, values: bound });
        }
      } finally {
        client.release();
      }
      return reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(same.answer));
    });
  } else {
    app.get('/products/:id', async (request) => {
      const { rows } = await sql`select * from products where id = ${(request.params as { id: string }).id}::uuid`.execute(db);
      return { data: rows[0] };
    });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/**
 * The same-SQL baseline of one case: the request made twice, the second recorded. The first fills
 * what the API keeps between requests (the credential cache: the Api-Key and token lookup; the
 * connection's prepared statements; the route's compiled validator), so the second sends what every
 * request sends in steady state: nothing is left out by hand. PostgreSQL only (the recording is pg's).
 */
async function capture(url: string, headers: Record<string, string>, key: string | null): Promise<Captured | null> {
  if (!options.databaseUrl) return null;
  await (await fetch(url, { headers })).arrayBuffer();
  const recorded: Statement[] = [];
  recording = recorded;
  let res: Response;
  let body: string;
  try {
    res = await fetch(url, { headers });
    body = await res.text();
    // Whatever the API sends after its answer (an onResponse hook) counts too.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    recording = undefined;
  }
  const answer = JSON.parse(body) as unknown;
  const id = sameSql.size + 1;
  sameSql.set(id, { statements: recorded, key, answer });
  return {
    id, status: res.status, answerBytes: Buffer.byteLength(body), routeAnswerBytes: Buffer.byteLength(JSON.stringify(answer)),
    statements: recorded.map((s) => ({ ...s, values: s.values.map((v) => (v instanceof Date ? v.toISOString() : v)) })),
    keyedValues: key === null ? 0 : recorded.reduce((n, s) => n + s.values.filter((v) => v === key).length, 0),
  };
}

try {
  if (options.role === 'load') {
    const loadedInMs = await load();
    await database.close();
    process.send!({ kind: 'loaded', loadedInMs } satisfies ServerMessage, () => process.exit(0));
    await new Promise<never>(() => {}); // this process only loads: it never serves
  }
  boundHeapGrowth(); // as server/app/main.ts does
  // Logging as `npm start` logs (a line per request at info), to a file of the run's folder.
  const api = await buildApp({ config, db, changes: database.changes, poolStats: database.poolStats,
    logger: { level: 'info', stream: logDestination(openSync(path.join(options.dataDir, 'api.log'), 'a')) } });
  await api.listen({ port: 0, host: '127.0.0.1' });
  const bare = await baseline();
  process.on('message', async (message: { kind: string }) => {
    if (message.kind === 'count') process.send!({ kind: 'count', statements: options.databaseUrl ? statements : null } satisfies ServerMessage);
    if (message.kind === 'record') recording = [];
    if (message.kind === 'capture') {
      const { url, headers, key } = message as unknown as { url: string; headers: Record<string, string>; key: string | null };
      process.send!(await capture(url, headers, key).then((captured) => ({ kind: 'captured', captured }),
        (error: Error) => ({ kind: 'captured', captured: null, error: error.message })) satisfies ServerMessage);
    }
    if (message.kind === 'plans') {
      const recorded = recording ?? [];
      recording = undefined;
      process.send!({ kind: 'plans', plans: options.databaseUrl ? await plansOf(recorded) : null } satisfies ServerMessage);
    }
    if (message.kind !== 'stop') return;
    await api.close();
    await bare.app.close();
    await database.close();
    process.exit(0);
  });
  send({ kind: 'ready', api: `http://127.0.0.1:${(api.server.address() as AddressInfo).port}/api/v1`, baseline: bare.url, fixtures: await fixtures() });
} catch (error) {
  await database.close().catch(() => {});
  process.send!({ kind: 'failed', error: (error as Error).stack ?? String(error) } satisfies ServerMessage, () => process.exit(1));
}
