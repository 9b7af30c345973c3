/**
 * The policy export (`GET /client/policies?format=excel`) against its promise: an .xlsx streamed
 * whatever the number of rows, with memory that stays flat. Run by hand, not in the test suite:
 *
 *   npm run bench:export                                   # 100000 policies, compared with 10000, embedded PGlite
 *   npm run bench:export -- --rows 20000 --small 2000     # quicker
 *   npm run bench:export -- --reader-kbps 300 --small 0   # a slow reader: the server must wait for it
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:export
 *
 * It starts the real server in this process (migrated, seeded, listening on an ephemeral port) over
 * a throw-away database: embedded PGlite in a temporary folder, or a new schema on the PostgreSQL
 * server of DATABASE_URL, dropped afterwards. For each pass it signs a client up through the API with
 * the sandbox Api-Key, creates one motor policy through the API, and clones it with SQL into N
 * policies (invoices, state history, a motor asset each, a three-car fleet every 25th, a payment
 * every 10th). Then it downloads the export over HTTP as a stream to a temporary file while sampling
 * process.memoryUsage() every --sample-ms (and, every --gc-every-ms, right after a forced full GC:
 * what the export holds rather than garbage V8 has not collected yet), and reads the file back with
 * exceljs's streaming reader.
 *
 * Exit code 1 when the workbook is wrong (rows, policies, header), when heapUsed (or the live heap
 * and Buffers) grew more than --max-heap-mb over the baseline during the big export, or when the big
 * export's live growth is more than --max-ratio times the small one's (growth under 10 MB counts as
 * 10 MB, so that noise on a short pass does not make a ratio).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../server/app/app.js';
import { loadConfig } from '../server/platform/config.js';
import { openDatabase } from '../server/platform/db/database.js';
import { migrateToLatest } from '../server/platform/db/migrate.js';
import { seedSandbox } from '../server/platform/db/seed.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    small: { type: 'string', default: '10000' },
    'max-heap-mb': { type: 'string', default: '150' },
    'max-ratio': { type: 'string', default: '3' },
    'sample-ms': { type: 'string', default: '50' },
    'gc-every-ms': { type: 'string', default: '500' },
    'reader-kbps': { type: 'string', default: '0' },
    trace: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('usage: npm run bench:export -- [--rows N] [--small N (0: no comparison)] [--max-heap-mb MB] [--max-ratio X] [--sample-ms MS] [--gc-every-ms MS (0: never)] [--reader-kbps KB/s (0: as fast as it can)] [--trace] [--keep]');
  process.exit(0);
}
const number = (name: string, min: number) => {
  const n = Number(values[name as keyof typeof values]);
  if (!Number.isFinite(n) || n < min) { console.error(`--${name} wants a number >= ${min}, not ${values[name as keyof typeof values]}`); process.exit(2); }
  return n;
};
const rows = Math.floor(number('rows', 1));
const small = Math.floor(number('small', 0));
const maxHeapMb = number('max-heap-mb', 1);
const maxRatio = number('max-ratio', 1);
const sampleMs = number('sample-ms', 5);
const gcEveryMs = number('gc-every-ms', 0);
const readerKbps = number('reader-kbps', 0);

// A full collection before each baseline, so it is what is live, not what is waiting to be collected.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MB).toFixed(1);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const signed = (n: number | undefined) => (n === undefined ? 'n/a' : `${n < 0 ? '' : '+'}${n.toFixed(1)} MB`);
const INSERT_BATCH = 10_000;
const RATIO_FLOOR_MB = 10;

// ---------------------------------------------------------------- the server, as npm start runs it

const url = process.env.DATABASE_URL || undefined;
const workDir = mkdtempSync(path.join(os.tmpdir(), 'coverline-bench-'));
const schema = url ? `bench_${randomBytes(6).toString('hex')}` : undefined;
async function admin(statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try { await client.query(statement); } finally { await client.end(); }
}
if (schema) await admin(`create schema ${schema}`);

const config = {
  ...loadConfig({ ...process.env, DATA_DIR: workDir, JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' }),
  port: 0,
  host: '127.0.0.1',
};
const database = await openDatabase({ databaseUrl: url, dataDir: workDir, schema });
const db = database.db;
await migrateToLatest(db);
await seedSandbox(db, config.sandboxApiKey);
const app = await buildApp({ config, db, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1`;

async function cleanUp() {
  await app.close();
  await database.close();
  if (schema) await admin(`drop schema ${schema} cascade`);
  if (!values.keep) rmSync(workDir, { recursive: true, force: true });
}

async function api(method: string, route: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { 'api-key': config.sandboxApiKey, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = await res.json() as { data: Record<string, any> };
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

// ---------------------------------------------------------------- a client with N policies

interface Seeded { policies: number; assets: number; invoices: number; transactions: number; token: string; ms: number }

/** The highest number a tenant has taken in a series (POL, INV, TRX), 0 if none. */
async function lastNumber(tenantId: string, series: string): Promise<number> {
  const row = await db.selectFrom('tenant_sequences').select('last_value').where('tenant_id', '=', tenantId).where('name', '=', series).executeTakeFirst();
  return row ? Number(row.last_value) : 0;
}

/** `PREFIX-0012` from a number in SQL, padded like server/platform/numbering.ts (never cut, as lpad would). */
const numbered = (prefix: string, n: ReturnType<typeof sql>) => sql`${prefix} || '-' || lpad((${n})::text, greatest(4, length((${n})::text)), '0')`;

/**
 * Signs a client up and creates one AUTO policy through the API, then clones that policy with SQL
 * into `count` policies in all: the same columns, breakdown, asset and invoice a real one has, with
 * its own numbers, one second older each, a three-car fleet (three times the premium) every 25th
 * and a verified payment every 10th. The tenant's number series move past the numbers used.
 */
async function seedClient(count: number, label: string): Promise<Seeded> {
  const started = performance.now();
  const tag = `${label}.${randomBytes(4).toString('hex')}`;
  const account = await api('POST', '/auth/signup', {
    type: 'INDIVIDUAL', firstName: 'Kofi', otherNames: 'Atta', lastName: 'Mensah', email: `kofi.${tag}@example.com`,
    password: 's3cure-Pass', country: 'GH', groups: [],
  });
  const token = account.accessToken as string;
  const product = await db.selectFrom('products').select('id').where('category', '=', 'AUTO').where('distribution', '=', 'ONLINE').executeTakeFirstOrThrow();
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const template = await api('POST', '/client/policies', {
    policyType: 'AUTO', currency: 'GHS', startDate: day(10), endDate: day(374), productId: product.id, businessType: 'NEW_BUSINESS',
    assets: [{
      coverage: 'COMPREHENSIVE', riskType: 'PRIVATE_INDIVIDUAL', make: 'Toyota', model: 'Corolla', registrationNo: 'GR 1234-24',
      chassisNumber: 'JTDBR32E720123456', cubicCapacity: 1800, seats: 5, bodyType: 'SALOON', usage: 'PRIVATE', sumInsured: 85000,
      noClaimDiscountYears: 2, policyExcess: 10, yearOfMake: new Date().getUTCFullYear() - 7,
    }],
  }, token);
  const tenantId = (await db.selectFrom('policies').select('tenant_id').where('id', '=', template.id).executeTakeFirstOrThrow()).tenant_id;
  const [pol, inv, trx] = [await lastNumber(tenantId, 'POL'), await lastNumber(tenantId, 'INV'), await lastNumber(tenantId, 'TRX')];

  // Clone k (1..count-1): POL-(pol+k), INV-(inv+k), and TRX-(trx+k/10) when k is a multiple of 10.
  for (let from = 1; from < count; from += INSERT_BATCH) {
    const to = Math.min(from + INSERT_BATCH - 1, count - 1);
    const k = sql`(substring(b.policy_no from 5)::int - ${pol}::int)`;
    await sql`
      with t as (select * from policies where id = ${template.id}::uuid),
      b as (
        insert into policies (tenant_id, policy_no, client_id, product_id, policy_type, state, coverage_type, cover_type, business_type,
          business_category, currency, exchange_rate, premium, sum_insured, fleet_discount_rate, premium_breakdown, start_date, end_date,
          generate_invoice, old_policy_id, notes, description, additional_information, group_id, created_by_staff_id, originating_staff_id,
          created_at, updated_at)
        select t.tenant_id, ${numbered('POL', sql`${pol}::int + g`)}, t.client_id, t.product_id, t.policy_type, t.state, t.coverage_type,
          t.cover_type, t.business_type, t.business_category, t.currency, t.exchange_rate,
          t.premium * case when g % 25 = 0 then 3 else 1 end, t.sum_insured * case when g % 25 = 0 then 3 else 1 end,
          t.fleet_discount_rate, t.premium_breakdown, t.start_date, t.end_date, t.generate_invoice, null, t.notes, t.description,
          t.additional_information, t.group_id, null, null, t.created_at - make_interval(secs => g), t.created_at - make_interval(secs => g)
        from t cross join generate_series(${from}::int, ${to}::int) g
        returning id, tenant_id, client_id, policy_no, state, currency, exchange_rate, premium, created_at
      ),
      cars as (
        insert into policy_assets (tenant_id, policy_id, position, details, sum_insured, premium)
        select b.tenant_id, b.id, a.position + car, jsonb_set(a.details, '{registrationNo}', to_jsonb('GR ' || ${k} || '-' || car)),
          a.sum_insured, a.premium
        from b cross join (select * from policy_assets where policy_id = ${template.id}::uuid) a
          cross join lateral generate_series(0, case when ${k} % 25 = 0 then 2 else 0 end) car
      ),
      history as (
        insert into policy_state_changes (tenant_id, policy_id, from_state, to_state, actor_kind, actor_id, created_at)
        select b.tenant_id, b.id, null, b.state, 'client', b.client_id, b.created_at from b
      ),
      i as (
        insert into invoices (tenant_id, invoice_no, policy_id, client_id, currency, exchange_rate, amount, converted_amount, description,
          invoice_date, created_at, updated_at)
        select b.tenant_id, ${numbered('INV', sql`${inv}::int + ${k}`)}, b.id, b.client_id, b.currency, b.exchange_rate, b.premium,
          round(b.premium * b.exchange_rate, 2), 'Premium for policy ' || b.policy_no, b.created_at::date, b.created_at, b.created_at
        from b
        returning id, tenant_id, policy_id, client_id, invoice_no, amount, currency, exchange_rate, converted_amount, created_at
      )
      insert into transactions (tenant_id, transaction_no, invoice_id, policy_id, client_id, payment_method, status, amount, currency,
        exchange_rate, converted_amount, created_at, updated_at)
      select i.tenant_id, ${numbered('TRX', sql`${trx}::int + (substring(i.invoice_no from 5)::int - ${inv}::int) / 10`)}, i.id, i.policy_id,
        i.client_id, 'MOBILE_MONEY', 'VERIFIED', i.amount, i.currency, i.exchange_rate, i.converted_amount, i.created_at, i.created_at
      from i where (substring(i.invoice_no from 5)::int - ${inv}::int) % 10 = 0
    `.execute(db);
  }
  const clones = count - 1;
  for (const [series, last] of [['POL', pol + clones], ['INV', inv + clones], ['TRX', trx + Math.floor(clones / 10)]] as const) {
    await db.insertInto('tenant_sequences').values({ tenant_id: tenantId, name: series, last_value: last })
      .onConflict((oc) => oc.columns(['tenant_id', 'name']).doUpdateSet({ last_value: last })).execute();
  }
  await sql`analyze`.execute(db);

  const { rows: [counts] } = await sql<Record<'policies' | 'assets' | 'invoices' | 'transactions', string>>`
    select (select count(*) from policies where client_id = ${account.id}::uuid) as policies,
      (select count(*) from policy_assets a join policies p on p.id = a.policy_id where p.client_id = ${account.id}::uuid) as assets,
      (select count(*) from invoices where client_id = ${account.id}::uuid) as invoices,
      (select count(*) from transactions where client_id = ${account.id}::uuid) as transactions`.execute(db);
  return {
    policies: Number(counts.policies), assets: Number(counts.assets), invoices: Number(counts.invoices),
    transactions: Number(counts.transactions), token, ms: performance.now() - started,
  };
}

// ---------------------------------------------------------------- the export, measured

interface Sample { t: number; rss: number; heapUsed: number; external: number }
const held = (s: Sample) => s.heapUsed + s.external;
interface Download { status: number; bytes: number; firstByteMs: number; totalMs: number }
interface Pass { label: string; seeded: Seeded; download: Download; baseline: Sample; peak: Sample; samples: number; longestGapMs: number;
  /** Samples taken right after a forced full collection during the export: what it holds, not garbage yet to collect. */
  live: Sample[]; rows: number; header: unknown; distinctPolicies: number }

const sample = (): Sample => { const m = process.memoryUsage(); return { t: performance.now(), rss: m.rss, heapUsed: m.heapUsed, external: m.external }; };

/** GET the export over HTTP and write it to `file` as it arrives, counting bytes; nothing is held in memory. */
function download(route: string, token: string, file: string): Promise<Download> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = 0;
    let bytes = 0;
    const request = http.get(`${base}${route}`, { agent: false, headers: { 'api-key': config.sandboxApiKey, authorization: `Bearer ${token}` } }, (res) => {
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          if (bytes === 0) firstByteMs = performance.now() - started;
          bytes += chunk.length;
          // A slow reader (--reader-kbps): the server must wait for it rather than buffer the rest.
          if (readerKbps > 0) setTimeout(() => done(null, chunk), (chunk.length / (readerKbps * 1024)) * 1000);
          else done(null, chunk);
        },
      });
      pipeline(res, count, createWriteStream(file)).then(
        () => resolve({ status: res.statusCode ?? 0, bytes, firstByteMs, totalMs: performance.now() - started }),
        reject,
      );
    });
    request.on('error', reject);
  });
}

/** Reads the workbook back with exceljs's streaming reader: its rows, header and distinct policy numbers. */
async function readBack(file: string) {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit', sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore', entries: 'ignore' });
  let rows = 0;
  let header: unknown;
  const policies = new Set<string>();
  for await (const worksheet of reader) {
    for await (const row of worksheet) {
      rows += 1;
      if (rows === 1) header = (row.values as unknown[]).slice(1);
      else policies.add(String(row.getCell(1).value));
    }
  }
  return { rows, header, distinctPolicies: policies.size };
}

const EXPORT = '/client/policies?format=excel&usePagination=false&assets=true';

async function measure(label: string, seeded: Seeded): Promise<Pass> {
  const file = path.join(workDir, `${label}.xlsx`);
  gc(); gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const baseline = sample();
  const samples: Sample[] = [baseline];
  const live: Sample[] = [];
  let collected = performance.now();
  const timer = setInterval(() => {
    samples.push(sample());
    if (gcEveryMs > 0 && performance.now() - collected >= gcEveryMs) {
      gc();
      collected = performance.now();
      live.push(sample());
    }
  }, sampleMs);
  let result: Download;
  try {
    result = await download(EXPORT, seeded.token, file);
  } finally {
    clearInterval(timer);
  }
  samples.push(sample());
  if (values.trace) {
    for (const l of live) console.log(`  ${label}: at ${((l.t - baseline.t) / 1000).toFixed(1)} s after a full GC, heapUsed ${signed((l.heapUsed - baseline.heapUsed) / MB)}, external ${signed((l.external - baseline.external) / MB)}`);
  }
  const peak = {
    t: 0,
    rss: Math.max(...samples.map((s) => s.rss)),
    heapUsed: Math.max(...samples.map((s) => s.heapUsed)),
    external: Math.max(...samples.map((s) => s.external)),
  };
  const longestGapMs = Math.max(...samples.slice(1).map((s, i) => s.t - samples[i].t));
  if (result.status !== 200) throw new Error(`${label}: the export answered ${result.status}`);
  const read = await readBack(file);
  if (!values.keep) rmSync(file, { force: true });
  return { label, seeded, download: result, baseline, peak, samples: samples.length, longestGapMs, live, ...read };
}

// ---------------------------------------------------------------- run, report, judge

const driver = url ? `PostgreSQL (${new URL(url).host}, schema ${schema})` : 'embedded PGlite (temporary folder)';
console.log(`Policy export benchmark: ${driver}; node ${process.version}, ${os.cpus().length} CPUs${readerKbps ? `; the reader takes ${readerKbps} KB/s` : ''}`);
const problems: string[] = [];
const passes: Pass[] = [];
try {
  const sizes = small > 0 ? [small, rows] : [rows];
  const seeded: Seeded[] = [];
  for (const [i, size] of sizes.entries()) {
    const s = await seedClient(size, i === sizes.length - 1 ? 'big' : 'small');
    console.log(`seeded ${s.policies} policies (${s.assets} assets, ${s.invoices} invoices, ${s.transactions} payments) for one client in ${seconds(s.ms)}`);
    seeded.push(s);
  }
  // Once through the export path first, so neither pass pays for first-call compilation.
  await download('/client/policies?format=excel&usePagination=true&limit=10&page=1&assets=true', seeded[0].token, path.join(workDir, 'warm-up.xlsx'));
  for (const s of seeded) passes.push(await measure(`${s.policies}`, s));

  for (const p of passes) {
    const expected = p.seeded.assets + 1;
    if (p.rows !== expected) problems.push(`${p.label}: the sheet has ${p.rows} rows, not ${expected} (header + one per asset)`);
    if (p.distinctPolicies !== p.seeded.policies) problems.push(`${p.label}: the sheet names ${p.distinctPolicies} policies, not ${p.seeded.policies}`);
    if (!Array.isArray(p.header) || p.header[0] !== 'Policy No') problems.push(`${p.label}: the header row is ${JSON.stringify(p.header)}`);
  }
} catch (error) {
  problems.push(`the run failed: ${(error as Error).stack ?? error}`);
} finally {
  await cleanUp().catch((error) => problems.push(`clean-up failed: ${(error as Error).message}`));
}

const growth = (p: Pass) => (p.peak.heapUsed - p.baseline.heapUsed) / MB;
const rssGrowth = (p: Pass) => (p.peak.rss - p.baseline.rss) / MB;
const liveGrowth = (p: Pass) => (p.live.length ? (Math.max(...p.live.map(held)) - held(p.baseline)) / MB : undefined);
if (passes.length) {
  const table = [
    ['policies', 'sheet rows', 'xlsx', 'first byte', 'total', 'rows/s', 'heapUsed: base', 'peak', 'growth', 'live: growth', 'rss: base', 'peak', 'growth', 'samples', 'max gap'],
    ...passes.map((p) => [
      String(p.seeded.policies), String(p.rows), `${mb(p.download.bytes)} MB`, `${p.download.firstByteMs.toFixed(0)} ms`,
      seconds(p.download.totalMs), ((p.rows - 1) / (p.download.totalMs / 1000)).toFixed(0),
      `${mb(p.baseline.heapUsed)} MB`, `${mb(p.peak.heapUsed)} MB`, signed(growth(p)), `${signed(liveGrowth(p))} (${p.live.length})`,
      `${mb(p.baseline.rss)} MB`, `${mb(p.peak.rss)} MB`, signed(rssGrowth(p)), String(p.samples), `${p.longestGapMs.toFixed(0)} ms`,
    ]),
  ];
  const widths = table[0].map((_, c) => Math.max(...table.map((r) => r[c].length)));
  console.log('');
  for (const r of table) console.log(r.map((cell, c) => cell.padStart(widths[c])).join('  '));
  console.log(`
growth: the highest sample during the download (one every ${sampleMs} ms; "max gap" is the longest the event loop kept
the sampler waiting) less the baseline taken after a full GC just before the request. "live": heapUsed + external
(Buffers) right after the full GC forced every ${gcEveryMs || '(never)'} ms during the download, i.e. what the export holds,
not garbage V8 has yet to collect (how many such samples in brackets). rss includes the embedded database when there is one.
`);
  const big = passes[passes.length - 1];
  console.log(`workbook check (exceljs WorkbookReader): ${passes.map((p) => `${p.rows} rows = header + ${p.rows - 1} asset rows over ${p.distinctPolicies} policies`).join('; ')}`);
  console.log(`heap budget: heapUsed peaked ${signed(growth(big))} over baseline for ${big.seeded.policies} policies; at most +${maxHeapMb} MB allowed`);
  if (growth(big) > maxHeapMb) problems.push(`heapUsed grew ${growth(big).toFixed(1)} MB, over the ${maxHeapMb} MB budget`);
  if ((liveGrowth(big) ?? 0) > maxHeapMb) problems.push(`live memory (heap + Buffers) grew ${liveGrowth(big)!.toFixed(1)} MB, over the ${maxHeapMb} MB budget`);
  if (passes.length === 2) {
    const [s] = passes;
    // Growth under RATIO_FLOOR_MB counts as that much: a few MB of noise on a short small pass would make any ratio look steep.
    const ratio = (a: number | undefined, b: number | undefined) =>
      (a === undefined || b === undefined ? undefined : Math.max(a, RATIO_FLOOR_MB) / Math.max(b, RATIO_FLOOR_MB));
    const heap = ratio(growth(big), growth(s))!;
    const live = ratio(liveGrowth(big), liveGrowth(s));
    const times = big.seeded.policies / s.seeded.policies;
    console.log(`flat memory: ${times.toFixed(0)}x the policies, ${live === undefined ? 'n/a' : `${live.toFixed(2)}x`} the live growth after GC (heapUsed peak ${heap.toFixed(2)}x, rss ${ratio(rssGrowth(big), rssGrowth(s))!.toFixed(2)}x); at most ${maxRatio}x allowed`);
    // The live growth is what the export holds; a heapUsed peak also counts the garbage made since the last GC,
    // which follows how fast rows go out, not how many. Without live samples (--gc-every-ms 0) the peak is all there is.
    const judged = live ?? heap;
    if (judged > maxRatio) problems.push(`${live === undefined ? 'heapUsed' : 'live'} growth is ${judged.toFixed(2)}x the small pass's for ${times.toFixed(0)}x the rows: memory is not flat`);
  }
}
if (problems.length) {
  console.error(`\nFAILED:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('ok');
process.exit(0);
