import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { backgroundWorker } from '../../server/app/jobs.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody } from '../helpers/clients.js';

/**
 * Traces (server/platform/observability/): a request is a span named by its operationId, under the
 * caller's `traceparent` if it sent one, with its statements as child spans that carry their text,
 * never a value; a background job is a root span of its own; with tracing off, no OpenTelemetry
 * module is loaded at all.
 */

const exporter = new InMemorySpanExporter();
let h: Harness;
beforeAll(async () => {
  const tracerProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  h = await createHarness({}, { tracerProvider });
});
afterAll(async () => { await h.close(); });
beforeEach(() => exporter.reset());

const spanId = (span: ReadableSpan) => span.spanContext().spanId;
const traceId = (span: ReadableSpan) => span.spanContext().traceId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** Every span of `root`'s trace below it. */
function descendants(spans: ReadableSpan[], root: ReadableSpan): ReadableSpan[] {
  const below = new Set([spanId(root)]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const span of spans) {
      if (!below.has(spanId(span)) && parentOf(span) && below.has(parentOf(span)!) && traceId(span) === traceId(root)) { below.add(spanId(span)); grew = true; }
    }
  }
  return spans.filter((span) => span !== root && below.has(spanId(span)));
}

const sqlSpans = (spans: ReadableSpan[]) => spans.filter((span) => span.attributes['db.system.name'] === 'postgresql');

describe('a traced request', () => {
  it('is a span named by its operationId, with its tenant, request id and statements (text, no values) below it', async () => {
    const body = individualBody();
    const res = await h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: body, headers: { 'x-request-id': 'trace-test-0001' } });
    expect(res.statusCode).toBe(201);
    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.name === 'signUp');
    expect(request).toBeDefined();
    expect(request!.attributes).toMatchObject({
      'coverline.operation_id': 'signUp', 'coverline.request.id': 'trace-test-0001', 'coverline.tenant.id': h.tenantId,
      'coverline.actor.kind': 'anonymous', 'http.route': '/api/v1/auth/signup', 'http.request.method': 'POST', 'http.response.status_code': 201,
    });
    expect(parentOf(request!)).toBeUndefined();

    const statements = sqlSpans(descendants(spans, request!));
    // The security hook's Api-Key query and the handler's inserts, all in the request's trace.
    expect(statements.map((span) => span.name)).toEqual(expect.arrayContaining(['SELECT api_keys', 'INSERT clients']));
    for (const span of statements) {
      expect(span.attributes).toMatchObject({ 'db.system.name': 'postgresql', 'db.operation.name': expect.any(String), 'db.query.text': expect.any(String) });
    }
    const insert = statements.find((span) => span.name === 'INSERT clients')!;
    expect(insert.attributes['db.query.text']).toMatch(/^insert into "clients"/);
    expect(insert.attributes['db.query.text']).toMatch(/\$1/);
    // No value the caller sent is in any statement's span.
    const texts = JSON.stringify(statements.map((span) => span.attributes));
    for (const value of [body.email, body.phoneNumber, body.password, h.apiKey]) expect(texts).not.toContain(value);
    // Every statement sent during the request belongs to it: none made a trace of its own.
    expect(sqlSpans(spans).filter((span) => !statements.includes(span))).toEqual([]);
  });

  it('names the signed-in client as its actor', async () => {
    const signup = await h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: individualBody() });
    const { accessToken, id } = signup.json().data;
    exporter.reset();
    expect((await h.call({ method: 'GET', url: '/api/v1/client/account', token: accessToken })).statusCode).toBe(200);
    const request = exporter.getFinishedSpans().find((span) => span.name === 'getAccount');
    expect(request?.attributes).toMatchObject({ 'coverline.actor.kind': 'client', 'enduser.id': id, 'coverline.tenant.id': h.tenantId });
    expect(JSON.stringify(request?.attributes)).not.toContain(accessToken);
  });

  it('continues the trace of a W3C traceparent it carries', async () => {
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const res = await h.call({ method: 'GET', url: '/api/v1/currencies', headers: { traceparent: `00-${trace}-${parent}-01` } });
    expect(res.statusCode).toBe(200);
    const request = exporter.getFinishedSpans().find((span) => span.attributes['coverline.operation_id'] !== undefined)!;
    expect(traceId(request)).toBe(trace);
    expect(parentOf(request)).toBe(parent);
  });

  it('marks a failed statement, naming its SQLSTATE and not its message', async () => {
    const body = individualBody();
    await h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: body });
    exporter.reset();
    // The same e-mail again: refused by the database's unique index or by the check before it.
    const again = await h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: { ...individualBody(), email: body.email } });
    expect(again.statusCode).toBe(409);
    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.name === 'signUp')!;
    expect(request.attributes['http.response.status_code']).toBe(409);
    expect(JSON.stringify(spans.map((span) => [span.attributes, span.status, span.events]))).not.toContain(body.email);
  });
});

describe('a traced job', () => {
  it('is a root span named by its queue, its statements below it', async () => {
    const worker = backgroundWorker(h.app.services, { intervalMs: 60_000 });
    expect(await worker.tick()).toBeGreaterThan(0);
    const spans = exporter.getFinishedSpans();
    const job = spans.find((span) => span.name === 'jobs.purge');
    expect(job).toBeDefined();
    expect(parentOf(job!)).toBeUndefined();
    expect(job!.attributes).toMatchObject({ 'coverline.job.queue': 'jobs.purge', 'coverline.job.id': expect.any(String) });
    const statements = sqlSpans(descendants(spans, job!));
    expect(statements.length).toBeGreaterThan(0);
    // The job's completion is its statement too.
    expect(statements.map((span) => span.name)).toContain('UPDATE jobs');
  });
});

describe('tracing off', () => {
  /**
   * Builds the app in a process of its own with a resolve hook that records every module path
   * loaded: none is OpenTelemetry's unless an OTLP endpoint is set (the same script with one set
   * shows the hook sees them).
   */
  const modulesLoaded = (env: Record<string, string>) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'coverline-otel-'));
    const record = path.join(dir, 'modules.txt');
    const hook = `import { appendFileSync } from 'node:fs';
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context);
        appendFileSync(${JSON.stringify(record)}, resolved.url + '\\n');
        return resolved;
      }`;
    const script = `
      import { register } from 'node:module';
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
      const { loadConfig } = await import('./server/platform/config.ts');
      const { openDatabase } = await import('./server/platform/db/database.ts');
      const { buildApp } = await import('./server/app/app.ts');
      const config = loadConfig({ ...process.env, NODE_ENV: 'test', JWT_SECRET: 'test-secret-that-is-long-enough-0123456789', DATA_DIR: ${JSON.stringify(dir)} });
      const database = await openDatabase({ dataDir: 'memory://' });
      const app = await buildApp({ config, db: database.db });
      await app.ready();
      await app.close();
      await database.close();`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../..'), env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000,
    });
    try {
      if (run.status !== 0) throw new Error(`the app did not build: ${run.stderr}`);
      return readFileSync(record, 'utf8').split('\n').filter(Boolean);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const openTelemetry = (urls: string[]) => urls.filter((url) => /@opentelemetry|@fastify\/otel|observability\/tracing-sdk/.test(url));

  it('loads no OpenTelemetry module; with OTEL_EXPORTER_OTLP_ENDPOINT set it does', () => {
    const off = modulesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: '' });
    expect(off.some((url) => url.includes('server/app/app.ts'))).toBe(true);
    expect(openTelemetry(off)).toEqual([]);
    const on = modulesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(openTelemetry(on).length).toBeGreaterThan(0);
  });
});
