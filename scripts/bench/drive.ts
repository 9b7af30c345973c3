/**
 * One bench case driven by autocannon, in a process of its own (started by scripts/bench/index.ts),
 * so the load generator does not share an event loop with the server it measures. Its one argument
 * names a JSON file holding a DriveCase; it prints one JSON DriveResult line on stdout.
 *
 * A case names requests to take in turn (paths, bodies, headers), so a read walks over many rows
 * and a create never repeats itself; `forwardedFor` gives every request its own X-Forwarded-For
 * (callers behind a load balancer: per-address rate limits see many addresses, as in production).
 *
 * With `rate`, the case is driven open-loop at that constant arrival rate instead (undici, at most
 * `connections` requests in flight): request n is due at start + n / rate whether or not the ones
 * before it were answered, and its latency runs from when it was due (a request waiting for a free
 * connection waits on the clock: no coordinated omission). Not autocannon's `overallRate`: autocannon
 * 8 gives each connection a quota per second that it sends back to back at each second's start
 * (lib/httpClient.js `_doRequest`), so its "rate" arrives in bursts as fast as the closed loop
 * allows, and its latency correction assumes an interval of ceil(1 / rate) = 1 ms (lib/run.js).
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { Pool } from 'undici';

export interface DriveRequest { method: 'GET' | 'POST'; path: string; body?: unknown; headers?: Record<string, string> }

export interface DriveCase {
  /** The server's base URL (the API's /api/v1 or the baseline's root). */
  base: string;
  headers: Record<string, string>;
  requests: DriveRequest[];
  connections: number;
  durationSeconds: number;
  forwardedFor?: boolean;
  /** Each request gets a fresh Idempotency-Key. */
  idempotencyKey?: boolean;
  /** Open-loop at this many requests a second (constant arrivals), rather than autocannon's closed loop. */
  rate?: number;
}

export interface DriveResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  p99_9Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** At a fixed rate: the rate asked for, the requests due by the end of the run, and those answered by then. */
  offeredPerSecond?: number;
  due?: number;
  answeredInTime?: number;
}

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as DriveCase;
const base = new URL(spec.base);
const prefix = base.pathname.replace(/\/$/, '');

/** The n-th request of the case: the list's next, with its own X-Forwarded-For and Idempotency-Key when asked. */
function requestAt(n: number) {
  const pick = spec.requests[n % spec.requests.length];
  return {
    method: pick.method,
    path: `${prefix}${pick.path}`,
    headers: {
      ...spec.headers,
      ...pick.headers,
      ...(pick.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(spec.forwardedFor ? { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` } : {}),
      ...(spec.idempotencyKey ? { 'idempotency-key': `bench-${process.pid}-${n}` } : {}),
    } as Record<string, string>,
    body: pick.body !== undefined ? JSON.stringify(pick.body) : undefined,
  };
}

/** Nearest rank. */
const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);

async function closedLoop(): Promise<DriveResult> {
  let next = 0;
  const result = await autocannon({
    url: base.origin,
    connections: spec.connections,
    duration: spec.durationSeconds,
    requests: [{
      setupRequest: (request: any) => Object.assign(request, requestAt(next++)),
    }],
  });
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]));
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    p99_9Ms: (result.latency as unknown as { p99_9: number }).p99_9,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}

/** Constant arrivals at spec.rate a second for the duration; requests still unanswered 10 s after it count as timeouts. */
async function openLoop(rate: number): Promise<DriveResult> {
  const pool = new Pool(base.origin, { connections: spec.connections, pipelining: 1 });
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let due = 0;
  let answered = 0;
  let answeredInTime = 0;
  let non2xx = 0;
  let errors = 0;
  const inFlight = new Set<Promise<void>>();
  const fire = (n: number, dueAt: number) => {
    const { method, path, headers, body } = requestAt(n);
    const done = pool.request({ method, path, headers, body })
      .then(async (res) => {
        await res.body.arrayBuffer();
        latencies.push(performance.now() - dueAt);
        answered += 1;
        statusCodes[res.statusCode] = (statusCodes[res.statusCode] ?? 0) + 1;
        if (res.statusCode < 200 || res.statusCode > 299) non2xx += 1;
      }, () => { errors += 1; })
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  };
  const interval = 1000 / rate;
  const start = performance.now() + 20;
  const end = start + spec.durationSeconds * 1000;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      for (let at = start + due * interval; at <= Math.min(now, end); at = start + due * interval) fire(due++, at);
      if (now >= end) { answeredInTime = answered; resolve(); } else setTimeout(tick, 1);
    };
    setTimeout(tick, 20);
  });
  const timeouts = await Promise.race([
    Promise.allSettled([...inFlight]).then(() => 0),
    new Promise<number>((resolve) => { setTimeout(() => resolve(inFlight.size), 10_000); }),
  ]);
  await pool.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: answeredInTime / spec.durationSeconds,
    p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), p99_9Ms: percentile(latencies, 99.9),
    total: answered, non2xx, errors, timeouts, statusCodes, offeredPerSecond: rate, due, answeredInTime,
  };
}

const out = spec.rate ? await openLoop(spec.rate) : await closedLoop();
process.stdout.write(`${JSON.stringify(out)}\n`);
