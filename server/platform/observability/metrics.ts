import { sql } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CredentialCache } from '../auth/credential-cache.js';
import type { Clock } from '../clock.js';
import type { Db, PoolStats } from '../db/database.js';
import { observeStatements } from '../db/transaction-settings.js';

/**
 * The server's Prometheus metrics (prom-client), one registry per app: nothing global, so a
 * process may hold many apps (the tests do). Made only when METRICS_TOKEN is set; otherwise no
 * hook runs and nothing is counted.
 *
 * Labels are bounded by construction: `operation` is an operationId of the contract or
 * `unmatched`, `method` an HTTP method or `OTHER`, `status_class` 2xx..5xx, `queue` a job queue's
 * name (the code's constants), `limit` a rate limit's name (`limitName`), `channel` email or sms.
 * Never an id, a URL, an address or a tenant.
 */

export const METRIC_PREFIX = 'coverline_';

/** Request durations, 5 ms to 10 s. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Statement durations, 0.5 ms to 5 s. */
const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Statements one request sends (BEGIN and COMMIT included). */
const STATEMENT_COUNT_BUCKETS = [0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 128];

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The operation label of a request no operation of the contract answered (unknown path, CORS preflight). */
export const UNMATCHED = 'unmatched';

export interface MetricsSources {
  db: Db;
  clock: Clock;
  credentials: CredentialCache;
  /** The database pool's connections (`DatabaseHandle.poolStats`); without it no pool gauges. */
  poolStats?: () => PoolStats;
}

/** What one request counts as it runs: the statements it sent. */
export interface RequestTally { statements: number }

export interface RequestOutcome {
  operation: string;
  method: string;
  statusCode: number;
  seconds: number;
  statements: number;
}

export interface Metrics {
  readonly registry: Registry;
  requestStarted(): void;
  requestEnded(): void;
  /** Counts an answered request. */
  observe(outcome: RequestOutcome): void;
  /** Counts a 429 of the named rate limit. */
  rateLimited(limit: string): void;
  /** The text exposition a Prometheus scrape reads. */
  exposition(): Promise<{ contentType: string; body: string }>;
  /** Stops watching the database's statements. */
  close(): void;
}

const statusClass = (status: number) => (status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : status >= 200 ? '2xx' : '1xx');

interface BacklogRow { source: 'job' | 'outbox' | 'webhook'; name: string; ready: number; running: number; scheduled: number; oldest: Date | string | null }

/**
 * Every backlog gauge's figures in one statement (a scrape costs one round trip): unfinished jobs by
 * queue (ready to run, running under a lease, scheduled for later, the oldest ready one's due
 * time), unsent outbox messages by channel and pending webhook deliveries (each with its oldest).
 * Each part reads a partial index of unfinished rows only (jobs_ready_idx, outbox_unsent_idx,
 * webhook_deliveries_pending_idx).
 */
async function readBacklog(db: Db, now: Date): Promise<BacklogRow[]> {
  const { rows } = await sql<BacklogRow>`
    select 'job' as source, queue as name,
      count(*) filter (where run_at <= ${now} and (locked_until is null or locked_until < ${now}))::int as ready,
      count(*) filter (where locked_until >= ${now})::int as running,
      count(*) filter (where run_at > ${now} and (locked_until is null or locked_until < ${now}))::int as scheduled,
      min(run_at) filter (where run_at <= ${now} and (locked_until is null or locked_until < ${now})) as oldest
    from jobs where done_at is null and failed_at is null group by queue
    union all
    select 'outbox', channel, count(*)::int, 0, 0, min(created_at) from outbox where status in ('QUEUED', 'RETRYING') group by channel
    union all
    select 'webhook', 'all', count(*)::int, 0, 0, min(created_at) from webhook_deliveries where status = 'PENDING'`.execute(db);
  return rows;
}

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });

  const labelNames = ['operation', 'method', 'status_class'] as const;
  const requests = new Counter({ name: `${METRIC_PREFIX}http_requests_total`, help: 'HTTP requests answered, by operationId (unmatched: no operation), method and status class.', labelNames, registers });
  const durations = new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`, help: 'Time from a request\'s arrival to its answer\'s last byte, by operationId, method and status class.',
    labelNames, buckets: REQUEST_BUCKETS, registers,
  });
  const inFlight = new Gauge({ name: `${METRIC_PREFIX}http_requests_in_flight`, help: 'Requests received and not yet answered.', registers });
  const statementsPerRequest = new Histogram({
    name: `${METRIC_PREFIX}db_statements_per_request`, help: 'Database statements (BEGIN and COMMIT included) one request\'s handler sent, by operationId (reading a credential the cache did not hold is counted in credential_cache_misses_total instead).',
    labelNames: ['operation'], buckets: STATEMENT_COUNT_BUCKETS, registers,
  });
  const statementDurations = new Histogram({
    name: `${METRIC_PREFIX}db_statement_duration_seconds`, help: 'Time the database took to answer one statement (requests and background jobs alike).',
    labelNames: ['outcome'], buckets: STATEMENT_BUCKETS, registers,
  });
  const rateLimits = new Counter({ name: `${METRIC_PREFIX}rate_limit_refusals_total`, help: 'Requests refused with 429, by the rate limit that refused them.', labelNames: ['limit'], registers });

  const { credentials } = sources;
  // Read from the cache's own counts at each scrape.
  const CACHE_COUNTS = {
    hits: 'Credential cache: authentication reads answered from the cache.',
    misses: 'Credential cache: authentication reads that went to the database (all of them while not listening).',
    drops: 'Credential cache: entries dropped by a change notice or because the notice listener was lost.',
  };
  for (const [key, help] of Object.entries(CACHE_COUNTS) as [keyof typeof CACHE_COUNTS, string][]) {
    new Counter({
      name: `${METRIC_PREFIX}credential_cache_${key}_total`, help, registers,
      collect() { this.reset(); this.inc(credentials.counts[key]); },
    });
  }
  new Gauge({ name: `${METRIC_PREFIX}credential_cache_entries`, help: 'Credentials kept by the cache now.', registers, collect() { this.set(credentials.size); } });
  new Gauge({
    name: `${METRIC_PREFIX}credential_cache_listening`, help: '1 while the cache receives the database\'s change notices (it keeps entries only then), else 0.', registers,
    collect() { this.set(credentials.active ? 1 : 0); },
  });

  const { poolStats } = sources;
  if (poolStats) {
    const pool = (name: string, help: string, read: (stats: PoolStats) => number) =>
      new Gauge({ name: `${METRIC_PREFIX}db_pool_${name}`, help, registers, collect() { this.set(read(poolStats())); } });
    pool('max', 'Most database connections the pool opens (PGlite: its one session).', (stats) => stats.max);
    pool('in_use', 'Database connections checked out by a query or transaction.', (stats) => stats.inUse);
    pool('idle', 'Open database connections free for the next query.', (stats) => stats.idle);
    pool('waiting', 'Queries or transactions waiting for a database connection.', (stats) => stats.waiting);
  }

  // The backlog gauges share one read per scrape: the first gauge's collect runs it, the others use it.
  let backlog: Promise<BacklogRow[] | undefined> | undefined;
  const readOnce = () => (backlog ??= readBacklog(sources.db, sources.clock.now()).catch(() => undefined));
  const backlogGauge = (name: string, help: string, labels: string[], fill: (gauge: Gauge, rows: BacklogRow[], now: number) => void) =>
    new Gauge({
      name: `${METRIC_PREFIX}${name}`, help, labelNames: labels, registers,
      async collect() {
        const rows = await readOnce();
        this.reset();
        if (rows) fill(this, rows, sources.clock.now().getTime());
      },
    });
  const ageOf = (row: BacklogRow, now: number) => (row.oldest === null ? 0 : Math.max(0, (now - new Date(row.oldest).getTime()) / 1000));
  const jobs = (rows: BacklogRow[]) => rows.filter((row) => row.source === 'job');
  backlogGauge('jobs_ready', 'Jobs due and waiting for a worker, by queue.', ['queue'], (gauge, rows) => {
    for (const row of jobs(rows)) gauge.set({ queue: row.name }, row.ready);
  });
  backlogGauge('jobs_running', 'Jobs a worker holds under a live lease, by queue.', ['queue'], (gauge, rows) => {
    for (const row of jobs(rows)) gauge.set({ queue: row.name }, row.running);
  });
  backlogGauge('jobs_scheduled', 'Jobs waiting for a later time (retries after a backoff, the next recurring slot), by queue.', ['queue'], (gauge, rows) => {
    for (const row of jobs(rows)) gauge.set({ queue: row.name }, row.scheduled);
  });
  backlogGauge('jobs_oldest_ready_age_seconds', 'How long the oldest due job has waited for a worker, by queue (0: none waits).', ['queue'], (gauge, rows, now) => {
    for (const row of jobs(rows)) gauge.set({ queue: row.name }, ageOf(row, now));
  });
  backlogGauge('outbox_unsent_messages', 'E-mails and SMS in the outbox not yet sent (queued, or retrying after a failure), by channel.', ['channel'], (gauge, rows) => {
    for (const channel of ['email', 'sms']) gauge.set({ channel }, rows.find((row) => row.source === 'outbox' && row.name === channel)?.ready ?? 0);
  });
  backlogGauge('outbox_oldest_unsent_age_seconds', 'Age of the oldest unsent outbox message, by channel (0: none).', ['channel'], (gauge, rows, now) => {
    for (const channel of ['email', 'sms']) {
      const row = rows.find((r) => r.source === 'outbox' && r.name === channel);
      gauge.set({ channel }, row ? ageOf(row, now) : 0);
    }
  });
  backlogGauge('webhook_deliveries_pending', 'Business events\' webhook deliveries not yet delivered nor given up.', [], (gauge, rows) => {
    gauge.set(rows.find((row) => row.source === 'webhook')?.ready ?? 0);
  });
  backlogGauge('webhook_oldest_pending_age_seconds', 'Age of the oldest pending webhook delivery (0: none).', [], (gauge, rows, now) => {
    const row = rows.find((r) => r.source === 'webhook');
    gauge.set(row ? ageOf(row, now) : 0);
  });
  new Gauge({
    name: `${METRIC_PREFIX}db_up`, help: '1 when the scrape\'s backlog read succeeded, 0 when the database did not answer it (the backlog gauges are then absent).', registers,
    async collect() { this.set((await readOnce()) ? 1 : 0); },
  });

  const stopObserving = observeStatements(sources.db, (statement) => {
    statementDurations.observe({ outcome: statement.error === undefined ? 'ok' : 'error' }, statement.durationMs / 1000);
  });

  return {
    registry,
    requestStarted: () => inFlight.inc(),
    requestEnded: () => inFlight.dec(),
    observe({ operation, method, statusCode, seconds, statements }) {
      const labels = { operation, method: METHODS.has(method) ? method : 'OTHER', status_class: statusClass(statusCode) };
      requests.inc(labels);
      durations.observe(labels, seconds);
      statementsPerRequest.observe({ operation }, statements);
    },
    rateLimited: (limit) => rateLimits.inc({ limit }),
    async exposition() {
      try {
        return { contentType: registry.contentType, body: await registry.metrics() };
      } finally {
        backlog = undefined;
      }
    },
    close() {
      stopObserving();
      registry.clear();
    },
  };
}
