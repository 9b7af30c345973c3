import { operationIndex } from '../../server/platform/openapi.js';
import { limitName } from '../../server/platform/rate-limit.js';
import { observeStatements } from '../../server/platform/db/transaction-settings.js';
import { buyHomePolicy, individualBody, onlineProductId, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';

/**
 * GET /metrics (Prometheus text format): off without METRICS_TOKEN (404, as a path the API does not
 * have), behind its bearer token when on, and what a journey of requests leaves in it, with every
 * label from a bounded list: never an id, a number, a path or a company.
 */

const TOKEN = 'metrics-token-for-the-tests-0123456789abcdef';
const METRICS = '/api/v1/metrics';

interface Sample { name: string; labels: Record<string, string>; value: number }

/** The samples of a text exposition (the test's reader; the server's text is prom-client's). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[name] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) => {
  const found = find(samples, name, labels);
  if (found.length !== 1) throw new Error(`${name}${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0].value;
};

async function scrape(h: Harness): Promise<Sample[]> {
  const res = await h.call({ method: 'GET', url: METRICS, apiKey: null, token: TOKEN });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(res.body);
}

describe('getMetrics: GET /metrics without METRICS_TOKEN', () => {
  let h: Harness;
  beforeAll(async () => { h = await createHarness(); });
  afterAll(async () => { await h.close(); });

  it('answers 404 as a path the API does not have, whatever the token, and keeps no metrics', async () => {
    expect(h.app.services.metrics).toBeUndefined();
    for (const token of [undefined, TOKEN]) {
      const res = await h.call({ method: 'GET', url: METRICS, apiKey: null, token });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    }
  });
});

describe('getMetrics: GET /metrics with METRICS_TOKEN', () => {
  let h: Harness;
  let samples: Sample[];
  beforeAll(async () => {
    h = await createHarness({ metricsToken: TOKEN, operatorKeyFailuresPerAddress: 1 });

    // The journey: two clients sign up, one logs in, lists products (twice: the second's credentials
    // come from the cache) and buys a policy; the other asks for it (404); a login without a password
    // (400); a path the API does not have (404); two wrong Operator-Keys (401, then 429).
    const a = await signUp(h);
    const login = await h.call({ method: 'POST', url: '/api/v1/auth/login', apiKey: h.apiKey, payload: { username: a.body.email, password: a.body.password } });
    expect(login.statusCode).toBe(200);
    const token = login.json().data.accessToken as string;
    for (let i = 0; i < 2; i += 1) expect((await h.call({ method: 'GET', url: '/api/v1/client/products', token })).statusCode).toBe(200);
    const policy = await buyHomePolicy(h, token, await onlineProductId(h, 'HOME'));
    const b = await signUp(h, individualBody());
    expect((await h.call({ method: 'GET', url: `/api/v1/client/policies/${policy.id}`, token: b.token })).statusCode).toBe(404);
    expect((await h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: a.body.email } })).statusCode).toBe(400);
    expect((await h.call({ method: 'GET', url: `/api/v1/no-such-path/${policy.id}/12345` })).statusCode).toBe(404);
    const wrongKey = { 'operator-key': 'op_wrong_wrong_wrong_wrong_wrong_wrong_00' };
    expect((await h.call({ method: 'GET', url: '/api/v1/operator/companies', apiKey: null, headers: wrongKey })).statusCode).toBe(401);
    expect((await h.call({ method: 'GET', url: '/api/v1/operator/companies', apiKey: null, headers: wrongKey })).statusCode).toBe(429);

    samples = await scrape(h);
  });
  afterAll(async () => { await h.close(); });

  it('refuses a missing token, a wrong one and the API\'s own credentials with 401', async () => {
    const missing = await h.call({ method: 'GET', url: METRICS, apiKey: null });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: 'MISSING_METRICS_TOKEN' });
    for (const options of [{ apiKey: null, token: `${TOKEN}x` }, { apiKey: null, token: TOKEN.slice(1) }, { token: (await signUp(h)).token }]) {
      const res = await h.call({ method: 'GET', url: METRICS, ...options });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'INVALID_METRICS_TOKEN' });
    }
  });

  it('counts and times the journey by operationId, method and status class', () => {
    const expected = [
      ['signUp', 'POST', '2xx', 2], ['login', 'POST', '2xx', 1], ['listProducts', 'GET', '2xx', 2], ['createPolicy', 'POST', '2xx', 1],
      ['getPolicy', 'GET', '4xx', 1], ['login', 'POST', '4xx', 1], ['unmatched', 'GET', '4xx', 1], ['listOperatorCompanies', 'GET', '4xx', 2],
    ] as const;
    for (const [operation, method, statusClass, count] of expected) {
      const labels = { operation, method, status_class: statusClass };
      expect({ labels, count: valueOf(samples, 'coverline_http_requests_total', labels) }).toEqual({ labels, count });
      expect({ labels, count: valueOf(samples, 'coverline_http_request_duration_seconds_count', labels) }).toEqual({ labels, count });
      expect(valueOf(samples, 'coverline_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(count);
      expect(valueOf(samples, 'coverline_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    }
    // The scrape itself is the one request in flight.
    expect(valueOf(samples, 'coverline_http_requests_in_flight')).toBe(1);
  });

  it('counts the statements each request sent, and times every statement', () => {
    // Listing products reads the products (its credentials came from the cache the second time).
    expect(valueOf(samples, 'coverline_db_statements_per_request_count', { operation: 'listProducts' })).toBe(2);
    expect(valueOf(samples, 'coverline_db_statements_per_request_sum', { operation: 'listProducts' })).toBeGreaterThanOrEqual(2);
    // Creating a policy is a transaction: BEGIN, its writes, COMMIT.
    expect(valueOf(samples, 'coverline_db_statements_per_request_sum', { operation: 'createPolicy' })).toBeGreaterThanOrEqual(4);
    // A path the API does not have sends none.
    expect(valueOf(samples, 'coverline_db_statements_per_request_sum', { operation: 'unmatched' })).toBe(0);
    expect(valueOf(samples, 'coverline_db_statement_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(10);
  });

  it('counts exactly the statements a request\'s handler sends, a write\'s BEGIN and COMMIT included', async () => {
    const sum = async () => valueOf(await scrape(h), 'coverline_db_statements_per_request_sum', { operation: 'signUp' });
    const before = await sum();
    const seen: string[] = [];
    const stop = observeStatements(h.db, (statement) => seen.push(statement.sql));
    // Straight to the app: the harness's call first reads the database itself on PostgreSQL (waiting for credential notices).
    const res = await h.app.inject({ method: 'POST', url: '/api/v1/auth/signup', headers: { 'api-key': h.apiKey }, payload: individualBody() });
    stop();
    expect(res.statusCode).toBe(201);
    expect(seen).toEqual(expect.arrayContaining(['begin', 'commit']));
    // Every statement the database saw during the sign-up (its Api-Key came from the cache) is counted, no more.
    expect(await sum() - before).toBe(seen.length);
  });

  it('reports the pool, the backlogs, the credential cache, the rate limits and the process', () => {
    expect(valueOf(samples, 'coverline_db_pool_max')).toBe(h.driver === 'pg' ? 20 : 1);
    for (const name of ['in_use', 'idle', 'waiting']) expect(valueOf(samples, `coverline_db_pool_${name}`)).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'coverline_db_pool_in_use')).toBeLessThanOrEqual(valueOf(samples, 'coverline_db_pool_max'));
    expect(valueOf(samples, 'coverline_db_up')).toBe(1);
    // No worker runs in the tests: the sign-ups' e-mails wait in the outbox, their delivery jobs in the queue.
    expect(valueOf(samples, 'coverline_jobs_ready', { queue: 'messages.deliver' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'coverline_jobs_oldest_ready_age_seconds', { queue: 'messages.deliver' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'coverline_outbox_unsent_messages', { channel: 'email' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'coverline_outbox_oldest_unsent_age_seconds', { channel: 'email' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'coverline_webhook_deliveries_pending')).toBe(0);
    expect(valueOf(samples, 'coverline_credential_cache_listening')).toBe(1);
    expect(valueOf(samples, 'coverline_credential_cache_hits_total')).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'coverline_credential_cache_misses_total')).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'coverline_credential_cache_drops_total')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'coverline_rate_limit_refusals_total', { limit: 'operator-key:address' })).toBe(1);
    expect(find(samples, 'coverline_rate_limit_refusals_total')).toHaveLength(1);
    expect(valueOf(samples, 'coverline_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'coverline_nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(find(samples, 'coverline_nodejs_eventloop_lag_seconds')).toHaveLength(1);
  });

  it('gives every series labels from bounded lists: no id, number, path, address or company', () => {
    const operations = new Set([...operationIndex().keys(), 'unmatched']);
    const allowed: Record<string, (value: string) => boolean> = {
      operation: (v) => operations.has(v),
      method: (v) => ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'OTHER'].includes(v),
      status_class: (v) => ['1xx', '2xx', '3xx', '4xx', '5xx'].includes(v),
      outcome: (v) => ['ok', 'error'].includes(v),
      queue: (v) => /^[a-z]+(-[a-z]+)*(\.[a-z]+(-[a-z]+)*)*$/.test(v),
      limit: (v) => /^[a-z]+(-[a-z]+)*(:[a-z]+(-[a-z]+)*)*$/.test(v),
      channel: (v) => ['email', 'sms'].includes(v),
      // prom-client's process metrics.
      kind: (v) => ['major', 'minor', 'incremental', 'weakcb'].includes(v),
      space: (v) => /^[a-z_]+$/.test(v),
      type: (v) => /^[A-Za-z]+$/.test(v),
      le: (v) => v === '+Inf' || Number.isFinite(Number(v)),
    };
    const looksLikeAnId = /[0-9a-f]{8}-[0-9a-f]{4}-|^\d+$|\/|@|sk_|Bearer/i;
    const problems: string[] = [];
    for (const { name, labels } of samples) {
      // Node's version (its numbers are the point) is the one family whose labels hold digits.
      if (name === 'coverline_nodejs_version_info') continue;
      for (const [label, value] of Object.entries(labels)) {
        if (!allowed[label]?.(value)) problems.push(`${name}: ${label}="${value}" is not from its bounded list`);
        if (label !== 'le' && looksLikeAnId.test(value)) problems.push(`${name}: ${label}="${value}" looks like an id or a path`);
      }
    }
    expect(problems).toEqual([]);
    // Every family carries the prefix.
    expect(samples.filter((s) => !s.name.startsWith('coverline_'))).toEqual([]);
  });
});

describe('rate limits as metrics name them (limitName)', () => {
  it('keeps a bucket\'s leading words and drops the tenant, address and account after them', () => {
    const tenant = '7d0f1c1e-5a4b-4c3d-9e8f-0a1b2c3d4e5f';
    expect(limitName(`login:account:${tenant}:id:${tenant}`)).toBe('login:account');
    expect(limitName(`login:account:${tenant}:name:kofi@example.com`)).toBe('login:account');
    expect(limitName('operator-key:address:127.0.0.1')).toBe('operator-key:address');
    expect(limitName('operator-key:address:::1')).toBe('operator-key:address');
    expect(limitName(`verify-send:${tenant}:${tenant}`)).toBe('verify-send');
    expect(limitName(`staff-reset-request:account:${tenant}:ama`)).toBe('staff-reset-request:account');
    expect(limitName('abcdefab-cdef-abcd-efab-cdefabcdefab:x')).toBe('other');
  });
});
