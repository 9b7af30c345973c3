/**
 * The targets, as ratios to the baseline measured in the same run (benchmarks, not timed
 * tests): each case's verdict, with the reason it is met or not. A case that got any non-2xx
 * answer or connection error is flagged whatever its speed: a bench of 401s measures nothing.
 */

export type Target =
  | { kind: 'throughput'; min: number }
  | { kind: 'latency'; maxP99: number }
  | { kind: 'memory'; maxRssMb: number; atPolicies: number }
  | { kind: 'resting'; maxRssMb: number }
  | { kind: 'none'; why: string };

export interface Figures {
  requestsPerSecond: number; p50Ms: number; p99Ms: number; p99_9Ms: number; total: number; non2xx: number; errors: number; statusCodes: Record<string, number>;
  /** Fixed-rate runs only: the rate offered, the requests due by the end of the runs and those answered by then. */
  offeredPerSecond?: number; due?: number; answeredInTime?: number;
}

/** What the same-SQL baseline of a case runs (servers.ts `capture`): one request's statements and answer. */
export interface SameSql {
  statements: { name?: string; text: string; values: unknown[] }[];
  /** The API's answer to that request (its status and bytes), and the bytes the route sends (JSON.stringify of it parsed). */
  capturedStatus: number; answerBytes: number; routeAnswerBytes: number;
  /** Values equal to the request's key (the id in its path), replaced by each baseline request's own id; 0 when the case reads one thing. */
  keyedValues: number;
}

export interface ExportFigures {
  status: number; bytes: number; seconds: number; policies: number; rssBeforeMb: number | null; peakRssMb: number | null;
  /**
   * The serving process just before the export (`/memory` on the baseline's server, in the same
   * process): V8's heap (reserved, and used by objects live or not yet collected), its young
   * generation's share of the reserved, and memory outside the heap (buffers), in MB.
   */
  processBefore: { heapTotalMb: number; heapUsedMb: number; newSpaceMb: number | null; externalMb: number } | null;
  /** The workbook read back (exceljs's streaming reader): its rows (the header included), header and distinct policy numbers. */
  workbook: { rows: number; header: unknown; distinctPolicies: number } | null;
}

/** What is wrong with an export's workbook: the header, then one row per asset (every policy has one), every policy loaded among them. */
function workbookProblem(e: ExportFigures): string | null {
  if (!e.workbook) return null;
  const { rows, header, distinctPolicies } = e.workbook;
  if (!Array.isArray(header) || header[0] !== 'Policy No') return `the export's header row is ${JSON.stringify(header)}`;
  // The create cases run first add policies (one asset each) to the bench client's.
  if (distinctPolicies < e.policies) return `the export names ${distinctPolicies} policies, fewer than the ${e.policies} loaded`;
  if (rows !== distinctPolicies + 1) return `the export has ${rows} rows, not ${distinctPolicies + 1} (the header and one per asset)`;
  return null;
}

/** The event delivery case (events.ts): two instances' workers delivering to a local receiver. */
export interface EventFigures {
  instances: number;
  /** The longest wait between two polls of each instance's worker (JOB_POLL_INTERVAL_MS); it is woken at the commit of jobs besides. */
  jobPollMs: number;
  /** Business changes committed (payments approved) and how fast the driver committed them. */
  changes: number; changesPerSecond: number;
  /** Events the endpoint takes (deliveries made), those received (once or more), and none more. */
  events: number; delivered: number; missing: number; duplicates: number; unexpected: number;
  /** Deliveries that failed the receiver's Standard Webhooks check; deliveries not SUCCEEDED at their first attempt. */
  unverified: number; notSucceededAtFirstAttempt: number;
  /** From the first event's createdAt to the last delivery's 2xx. */
  seconds: number; deliveriesPerSecond: number;
  /** Each delivery's lag from its event's createdAt to the receiver's 2xx. */
  lagMs: { p50: number; p99: number; max: number } | null;
  /** Each `transaction.approved` delivery's lag from the approval's answer (as the driver got it) to the receiver's 2xx. */
  answerLagMs: { p50: number; p99: number; max: number } | null;
  /** Webhook jobs each instance's worker ran. */
  ranByInstance: number[];
  /** Non-2xx answers while preparing or committing, and the instances' logged job errors (the first 10). */
  problems: string[];
}

export type BaselineKind = 'primaryKey' | 'sameSql' | 'observingOff';

interface Verdict { target: Target; met: boolean | null; reason: string; flagged: string | null }
export type CaseReport =
  | ({ kind: 'http'; name: string; api: Figures; baseline: Figures; ratio: number; p99Ratio: number; statementsPerRequest: number | null;
      /** Which baseline: the primary-key route, the same-SQL route of the case, or the API with observing off. */
      baselineKind: BaselineKind;
      /** EXPLAIN (ANALYZE, BUFFERS) of each SELECT one request sends, for the cases that ask (list cases, PostgreSQL). */
      plans?: string[];
      /** baselineKind "sameSql": what the baseline runs and answers. */
      sameSql?: SameSql } & Verdict)
  /** The API and its same-SQL baseline driven at the same constant arrival rate (drive.ts `rate`). */
  | ({ kind: 'rate'; name: string; offeredPerSecond: number; api: Figures; baseline: Figures; p99Ratio: number } & Verdict)
  | ({ kind: 'export'; name: string; export: ExportFigures } & Verdict)
  | ({ kind: 'events'; name: string; events: EventFigures | null } & Verdict)
  /**
   * Resident memory before any request: the built server's at rest (`rssMb`, after `settleSeconds`
   * idle; null when not read) and once listening, and the bench's tsx server's once listening.
   */
  | ({ kind: 'rest'; name: string; rssMb: number | null; listeningRssMb: number | null; settleSeconds: number; tsxRssMb: number | null } & Verdict)
  /** Password hashes a second at the API's own settings, in the bench's process: what bounds a login. */
  | ({ kind: 'hashing'; name: string; hashesPerSecond: number; parallel: number } & Verdict)
  /** A case this run could not make (its reason says why: the embedded database, say). */
  | ({ kind: 'notRun'; name: string } & Verdict);

/**
 * The event delivery case's verdict: no target (the issue asks for the figures), flagged when an
 * event the endpoint takes did not arrive exactly once, verified, at its first attempt, or when a
 * change or an instance failed. Without figures (the embedded database) it did not run.
 */
export function judgeEvents(name: string, e: EventFigures | null, smoke: boolean): CaseReport {
  const target: Target = { kind: 'none', why: 'the issue asks for deliveries per second and the p99 lag, not a target' };
  if (!e) return { kind: 'events', name, events: null, target, met: null, flagged: null, reason: 'not run: two instances need one PostgreSQL database (DATABASE_URL)' };
  const wrong = [
    e.events === 0 && 'no event was delivered to the endpoint',
    e.missing > 0 && `${e.missing} of ${e.events} events never arrived`,
    e.duplicates > 0 && `${e.duplicates} deliveries arrived more than once`,
    e.unexpected > 0 && `${e.unexpected} events arrived that the endpoint does not take`,
    e.unverified > 0 && `${e.unverified} deliveries failed the signature check`,
    e.notSucceededAtFirstAttempt > 0 && `${e.notSucceededAtFirstAttempt} deliveries did not succeed at their first attempt`,
    e.problems.length > 0 && `problems: ${e.problems.join('; ')}`,
  ].filter(Boolean);
  const lag = [e.lagMs ? `lag from createdAt p50 ${e.lagMs.p50} ms, p99 ${e.lagMs.p99} ms, max ${e.lagMs.max} ms` : 'no lag measured',
    ...(e.answerLagMs ? [`from the answer p50 ${e.answerLagMs.p50} ms, p99 ${e.answerLagMs.p99} ms, max ${e.answerLagMs.max} ms`] : [])].join('; ');
  const figures = `${e.delivered} of ${e.events} events delivered once at ${e.deliveriesPerSecond.toFixed(0)}/s, ${lag} `
    + `(${e.changes} changes committed at ${e.changesPerSecond.toFixed(0)}/s; jobs per instance ${e.ranByInstance.join(' + ')}; poll ${e.jobPollMs} ms)`;
  return { kind: 'events', name, events: e, target, met: null, flagged: wrong.length ? wrong.join('; ') : null,
    reason: `${smoke ? 'smoke run, not judged' : 'no target'}: ${figures}` };
}

/**
 * Why a case falls short, as far as the run can tell: the baseline sends one statement a request,
 * so more than one is a round trip (and PostgreSQL's work) the baseline does not pay; with one, the
 * rest is the API's own CPU per request, which `--profile` shows.
 */
function whyNot(statements: number): string {
  const sent = `${statements.toFixed(1)} statements sent to the database a request (BEGIN/COMMIT included), the baseline 1`;
  if (statements > 1.05) return `${sent}: each more is a round trip and PostgreSQL's work on a machine both share`;
  return `${sent}: the gap is the API's own CPU a request (contract routing and validation, security headers, the query builder, `
    + 'serialisation, a bigger answer), on 2 cores shared with PostgreSQL and the load generator; --profile shows where';
}

function flag(f: Figures): string | null {
  if (f.total === 0) return 'no request was answered';
  if (f.non2xx > 0 || f.errors > 0) return `${f.non2xx} non-2xx answers and ${f.errors} errors of ${f.total} (status codes ${JSON.stringify(f.statusCodes)})`;
  return null;
}

/**
 * Against its same-SQL baseline, a case sends the same statements: what is left is the API's
 * machinery, unless the statements it sent while counted differ from those captured.
 */
function whyNotSameSql(statements: number | null, same: SameSql): string {
  const captured = same.statements.length;
  const differs = statements !== null && Math.abs(statements - captured) > 0.05
    ? `; the API sent ${statements.toFixed(1)} statements a request while counted, ${captured} when captured: the difference is work the baseline does not do`
    : '';
  return `the same ${captured} statement(s) and answer (${same.routeAnswerBytes} bytes) as the API: the gap is the API's own CPU a request `
    + '(authentication from its cache, contract routing and validation, security headers, the query builder, '
    + `building and serialising the answer), on 2 cores shared with PostgreSQL and the load generator; --profile shows where${differs}`;
}

/** A case against its same-SQL baseline (kind http, baselineKind sameSql), or why it did not run. */
export function judgeSameSql(name: string, target: Target, api: Figures | undefined, baseline: Figures | undefined, same: SameSql | null,
  statementsPerRequest: number | null, smoke: boolean, notRun: string | null): CaseReport {
  if (notRun !== null || !same || !api || !baseline) return { kind: 'notRun', name, target, met: null, flagged: null, reason: `not run: ${notRun ?? 'nothing captured'}` };
  const report = judge(name, target, api, baseline, statementsPerRequest, smoke, undefined, 'sameSql');
  if (report.kind !== 'http') return report;
  const capturedWrong = same.capturedStatus < 200 || same.capturedStatus > 299 ? `the captured request answered ${same.capturedStatus}` : null;
  const reason = report.met === false ? `${report.reason.split('; ')[0]}; ${whyNotSameSql(statementsPerRequest, same)}` : report.reason;
  return { ...report, reason, flagged: report.flagged ?? capturedWrong, sameSql: same };
}

/** The API and its same-SQL baseline at one constant arrival rate: p99 against p99, flagged when either fell behind. */
export function judgeRate(name: string, target: Target, offeredPerSecond: number, api: Figures | undefined, baseline: Figures | undefined,
  smoke: boolean, notRun: string | null): CaseReport {
  if (notRun !== null || !api || !baseline) return { kind: 'notRun', name, target, met: null, flagged: null, reason: `not run: ${notRun ?? 'no rate'}` };
  const p99Ratio = baseline.p99Ms > 0 ? api.p99Ms / baseline.p99Ms : Infinity;
  const flagged = flag(api) ?? (flag(baseline) ? `baseline: ${flag(baseline)}` : null);
  const behind = (f: Figures, who: string) => (f.due && (f.answeredInTime ?? 0) < 0.95 * f.due
    ? `; ${who} had answered ${f.answeredInTime} of the ${f.due} requests due by the end: the rate is past what it sustains, so its latency is mostly its queue`
    : '');
  const figures = `at ${offeredPerSecond.toFixed(0)} req/s offered: p50/p99/p99.9 ${api.p50Ms.toFixed(1)}/${api.p99Ms.toFixed(1)}/${api.p99_9Ms.toFixed(1)} ms, `
    + `the same SQL ${baseline.p50Ms.toFixed(1)}/${baseline.p99Ms.toFixed(1)}/${baseline.p99_9Ms.toFixed(1)} ms (p99 ${p99Ratio.toFixed(1)}x)`
    + `${behind(api, 'the API')}${behind(baseline, 'the baseline')}`;
  let met: boolean | null = null;
  let reason: string;
  if (target.kind === 'none') reason = `no target: ${figures}`;
  else if (smoke) reason = `smoke run, not judged: ${figures}`;
  else if (target.kind === 'latency') { met = p99Ratio <= target.maxP99; reason = `${figures}, target p99 <= ${target.maxP99}x`; }
  else reason = `not a latency target: ${figures}`;
  return { kind: 'rate', name, offeredPerSecond, api, baseline, p99Ratio, target, met, reason, flagged };
}

export function judge(name: string, target: Target, api: Figures | undefined, baseline: Figures | undefined,
  statementsPerRequest: number | null, smoke: boolean, exported?: ExportFigures, baselineKind: BaselineKind = 'primaryKey'): CaseReport {
  if (exported) {
    const flagged = exported.status !== 200 || exported.bytes === 0 ? `the export answered ${exported.status} with ${exported.bytes} bytes` : workbookProblem(exported);
    const t = target as Extract<Target, { kind: 'memory' }>;
    let met: boolean | null = null;
    let reason: string;
    const peak = exported.peakRssMb;
    const figures = `${exported.policies} policies in ${exported.seconds.toFixed(1)} s (${(exported.bytes / 2 ** 20).toFixed(1)} MB), `
      + `server RSS ${exported.rssBeforeMb?.toFixed(0) ?? 'n/a'} MB before, peak ${peak?.toFixed(0) ?? 'n/a'} MB`
      + (exported.processBefore ? ` (before: V8's heap ${exported.processBefore.heapTotalMb.toFixed(0)} MB reserved, ${exported.processBefore.heapUsedMb.toFixed(0)} MB used, `
        + `${exported.processBefore.newSpaceMb?.toFixed(0) ?? '?'} MB of it the young generation; ${exported.processBefore.externalMb.toFixed(0)} MB outside it)` : '');
    if (smoke) reason = `smoke run, not judged: ${figures}`;
    else if (peak === null) reason = `not judged: no /proc to read the server's RSS from; ${figures}`;
    else if (exported.policies < t.atPolicies) reason = `not judged: the target is for ${t.atPolicies} policies, this run exported ${figures}`;
    else { met = peak < t.maxRssMb; reason = `${figures}; target peak < ${t.maxRssMb} MB`; }
    return { kind: 'export', name: `Excel export (${exported.policies} policies, with assets)`, export: exported, target, met, reason, flagged };
  }
  const a = api!;
  const b = baseline!;
  const ratio = b.requestsPerSecond > 0 ? a.requestsPerSecond / b.requestsPerSecond : 0;
  const p99Ratio = b.p99Ms > 0 ? a.p99Ms / b.p99Ms : Infinity;
  const flagged = flag(a) ?? (flag(b) ? `baseline: ${flag(b)}` : null);
  const trips = statementsPerRequest === null ? '' : `; ${whyNot(statementsPerRequest)}`;
  let met: boolean | null = null;
  let reason: string;
  if (target.kind === 'none') reason = `no target: ${target.why}`;
  else if (smoke) reason = 'smoke run, not judged';
  else if (target.kind === 'throughput') {
    met = ratio >= target.min;
    reason = `${ratio.toFixed(2)}x the baseline's req/s, target >= ${target.min}x${met ? '' : trips}`;
  } else if (target.kind === 'latency') {
    met = p99Ratio <= target.maxP99;
    reason = `p99 ${a.p99Ms.toFixed(0)} ms is ${p99Ratio.toFixed(1)}x the baseline's ${b.p99Ms.toFixed(0)} ms, target <= ${target.maxP99}x${met ? '' : trips}`;
  } else reason = 'not an HTTP target';
  return { kind: 'http', name, api: a, baseline: b, ratio, p99Ratio, statementsPerRequest, baselineKind, target, met, reason, flagged };
}

/**
 * Resident memory at rest after start: the built server as deployed (`npm run build`, then
 * `npm run start:built`) judged against `maxRssMb`; the bench's own serving process (the API as
 * `npm start` runs it, through tsx, beside the baselines' bare routes) reported beside it.
 */
export function judgeRest(name: string, rss: { built: number | null; builtListening: number | null; settleSeconds: number; tsx: number | null },
  why: string | null, smoke: boolean): CaseReport {
  const target: Target = { kind: 'resting', maxRssMb: 150 };
  const tsx = rss.tsx === null ? 'the bench\'s tsx server: not read' : `the bench's server under tsx (npm start) ${rss.tsx.toFixed(0)} MB once listening`;
  const base = { kind: 'rest' as const, name, rssMb: rss.built, listeningRssMb: rss.builtListening, settleSeconds: rss.settleSeconds, tsxRssMb: rss.tsx, target };
  if (rss.built === null) return { ...base, met: null, flagged: why?.startsWith('the built server did not start') ? why : null, reason: `${why ?? 'not read'}; ${tsx}` };
  const atRest = rss.settleSeconds > 0
    ? `${rss.built.toFixed(0)} MB resident after ${rss.settleSeconds} s idle, before any request (${rss.builtListening?.toFixed(0) ?? '?'} MB once listening)`
    : `${rss.built.toFixed(0)} MB resident once listening, before any request`;
  const figures = `the built server (npm run start:built) ${atRest}; ${tsx}; target at most ${target.maxRssMb} MB at rest`;
  if (smoke) return { ...base, met: null, flagged: null, reason: `smoke run, not judged: ${figures}` };
  return { ...base, met: rss.built <= target.maxRssMb, flagged: null, reason: figures };
}

/** Password hashing's speed: no target (logins are bound by it, by design), the figure the login case is read against. */
export function judgeHashing(name: string, hashesPerSecond: number, parallel: number, settings: string): CaseReport {
  return { kind: 'hashing', name, hashesPerSecond, parallel, target: { kind: 'none', why: 'argon2id at OWASP\'s parameters by design' }, met: null, flagged: null,
    reason: `${hashesPerSecond.toFixed(1)} hashes/s, ${parallel} at a time, ${settings}: a login verifies one hash, so this is its ceiling on this machine` };
}
