/**
 * The contract fuzzer with a longer budget than CI's, run by hand:
 *
 *   npm run fuzz -- --seed 42 --per-operation 300 --seconds 300
 *   npm run fuzz -- --seed 42 --per-operation 300 --operation signUp --request 17   # replay one request
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run fuzz
 *
 * It builds the app on a fresh database (embedded PGlite, or a throw-away schema on PostgreSQL),
 * fuzzes every operation of generated/openapi.json (or those named) and prints a summary with
 * every failure and how to replay it. Exit code 1 when something failed.
 */
import { parseArgs } from 'node:util';
import { fuzzContext } from '../test/fuzz/resources.js';
import { formatFailure, fuzzAll } from '../test/fuzz/run.js';
import { FUZZ_METRICS_TOKEN, harnessTarget } from '../test/fuzz/target.js';
import { createHarness } from '../test/helpers/harness.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    'per-operation': { type: 'string', default: '200' },
    seconds: { type: 'string', default: '120' },
    operation: { type: 'string', multiple: true },
    request: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  console.log('usage: npm run fuzz -- [--seed N] [--per-operation N] [--seconds N] [--operation ID ...] [--request INDEX]');
  process.exit(0);
}

const positive = (name: string, text: string | undefined) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) { console.error(`--${name} wants a whole number, not ${text}`); process.exit(2); }
  return n;
};
const seed = values.seed === undefined ? Math.floor(Math.random() * 1_000_000) : positive('seed', values.seed);
const perOperation = positive('per-operation', values['per-operation']);
const seconds = positive('seconds', values.seconds);
const onlyIndex = values.request === undefined ? undefined : positive('request', values.request);

const ctx = fuzzContext();
const operationIds = (values.operation ?? []).flatMap((v) => v.split(',')).filter(Boolean);
const unknown = operationIds.filter((id) => !ctx.ops.some((op) => op.operationId === id));
if (unknown.length) { console.error(`not in the contract: ${unknown.join(', ')}`); process.exit(2); }

const h = await createHarness({ metricsToken: FUZZ_METRICS_TOKEN });
let failed = false;
try {
  console.log(`fuzzing on ${h.driver}: seed ${seed}, ${perOperation} requests per operation, ${seconds}s${onlyIndex === undefined ? '' : `, request #${onlyIndex} only`}`);
  const started = Date.now();
  const summary = await fuzzAll(harnessTarget(h), { seed, perOperation, seconds, operationIds, onlyIndex }, ctx);

  const width = Math.max(...summary.reports.map((r) => r.operationId.length), 9);
  console.log(`\n${'operation'.padEnd(width)}  sent  follow  fail  statuses`);
  for (const r of summary.reports) {
    const statuses = Object.entries(r.statuses).map(([s, n]) => `${s}×${n}`).join(' ');
    console.log(`${r.operationId.padEnd(width)}  ${String(r.sent).padStart(4)}  ${String(r.followUps).padStart(6)}  ${String(r.failures.length).padStart(4)}  ${statuses}${r.notes.length ? `  (${r.notes.join('; ')})` : ''}`);
  }
  console.log(`\n${summary.operations} operations, ${summary.requests} requests in ${((Date.now() - started) / 1000).toFixed(1)}s; ${summary.failures.length} failures (seed ${seed})`);
  if (summary.failures.length) {
    console.log('\nFAILURES\n');
    for (const f of summary.failures) console.log(`${formatFailure(f)}\n`);
    failed = true;
  }
} finally {
  await h.close();
}
process.exit(failed ? 1 : 0);
