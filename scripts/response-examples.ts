/**
 * Writes the success example of every typed policy create (`POST /client/policies/<kind>`) and quote
 * (`POST /client/quotes/<kind>`) call from what the server answers to that call's own request
 * example, so each operation's page shows its own kind. Run by hand after changing a request
 * example, the rating or the policy shape, then `npm run generate`:
 *
 *   npx tsx scripts/response-examples.ts
 *
 * It builds the app on a throw-away embedded database with the clock stopped on the day the
 * examples are dated for, signs one client up and sends each request example of
 * generated/openapi.json through `app.inject`; each answer (checked against the contract on the
 * way) becomes spec/components/examples/policy-created/<operationId>.yaml or
 * .../quoted/<operationId>.yaml, its random ids replaced by stable ones, so that a second run
 * writes the same files.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { createHarness, EXAMPLES_DAY } from '../test/helpers/harness.js';

type Json = Record<string, any>;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const doc: Json = JSON.parse(readFileSync(path.join(root, 'generated/openapi.json'), 'utf8'));

interface Call { path: string; operationId: string; summary: string; example: Json; status: number; folder: string; describe: (kind: string) => string }

/** The typed creates and the quotes, with what their example's summary says. */
const calls: Call[] = Object.entries(doc.paths as Json).flatMap(([urlPath, item]): Call[] => {
  const op = item.post;
  const example = () => Object.values(op.requestBody.content['application/json'].examples as Json)[0].value as Json;
  if (/^\/client\/policies\/[a-z-]+$/.test(urlPath) && /^create\w+Policy$/.test(op?.operationId ?? '')) {
    return [{ path: urlPath, operationId: op.operationId, summary: op.summary, example: example(), status: 201, folder: 'policy-created',
      describe: (kind) => `The ${kind} the request example creates, priced by the server, with its invoice` }];
  }
  if (/^\/client\/quotes\/[a-z-]+$/.test(urlPath)) {
    return [{ path: urlPath, operationId: op.operationId, summary: op.summary, example: example(), status: 200, folder: 'quoted',
      describe: (kind) => `The price of the ${kind} the request example describes` }];
  }
  return [];
});
if (calls.filter((c) => c.status === 201).length !== 23 || calls.filter((c) => c.status === 200).length !== 10) {
  throw new Error(`expected 23 typed creates and 10 quotes in generated/openapi.json, found ${calls.length}: run npm run generate?`);
}

/**
 * The database draws random (v4) ids; each is written as one derived from the order it was first
 * answered in, the same in every example it stands in, so a run that changes nothing else rewrites
 * nothing. Seeded (v5) ids, such as the products' the request examples name, are kept.
 */
const RANDOM_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const stableIds = new Map<string, string>();
function stableId(id: string) {
  let stable = stableIds.get(id);
  if (!stable) {
    const hex = createHash('sha256').update(`coverline-example-${stableIds.size}`).digest('hex');
    stable = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    stableIds.set(id, stable);
  }
  return stable;
}
const withStableIds = (value: unknown): unknown => {
  if (typeof value === 'string') return RANDOM_ID.test(value) ? stableId(value) : value;
  if (Array.isArray(value)) return value.map(withStableIds);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, withStableIds(v)]));
  return value;
};

const h = await createHarness();
try {
  // Stopped, so every timestamp and date in the answers is the same on every run.
  const stopped = new Date(EXAMPLES_DAY);
  h.clock.now = () => new Date(stopped);
  const signup = await h.call({
    method: 'POST', url: '/api/v1/auth/signup',
    payload: {
      type: 'INDIVIDUAL', firstName: 'Kofi', lastName: 'Mensah', otherNames: 'Atta', email: 'kofi.mensah@example.com',
      phoneNumber: '+233244123456', password: 's3cure-Pass', country: 'GH', groups: [],
    },
  });
  if (signup.statusCode !== 201) throw new Error(`signup answered ${signup.statusCode}: ${signup.body}`);
  const token = signup.json().data.accessToken as string;

  for (const call of calls) {
    const res = await h.call({ method: 'POST', url: `/api/v1${call.path}`, token, payload: call.example });
    if (res.statusCode !== call.status) throw new Error(`${call.operationId} answered ${res.statusCode}, not ${call.status}: ${res.body}`);
    const kind = call.summary.replace(/^(Create|Quote) an? /, '');
    const file = path.join(root, 'spec/components/examples', call.folder, `${call.operationId}.yaml`);
    mkdirSync(path.dirname(file), { recursive: true });
    const header = `# Written by scripts/response-examples.ts: what ${call.operationId} answers to its request example. Run it again rather than editing.\n`;
    // YAML 1.1 quoting: a date or a timestamp stays a string for parsers that read 1.1 (js-yaml).
    writeFileSync(file, header + stringify({ summary: call.describe(kind), value: withStableIds(res.json()) }, { lineWidth: 0, version: '1.1' }));
    console.log(`${call.operationId}: ${res.statusCode} -> ${path.relative(root, file)}`);
  }
} finally {
  await h.close();
}
