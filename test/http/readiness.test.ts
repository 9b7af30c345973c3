import { sql } from 'kysely';
import { createHarness, type Harness } from '../helpers/harness.js';
import { checkErrorShape } from '../fuzz/check.js';
import { LATEST_MIGRATION } from '../../server/platform/db/migrate.js';

// GET /health/ready: ready only when the database answers at this code's migration, the credential
// cache hears the database's notices, storage takes a write and no shutdown has begun.

const READY = '/api/v1/health/ready';
const OK_CHECKS = {
  database: { status: 'ok', detail: `at migration ${LATEST_MIGRATION}` },
  notices: { status: 'ok', detail: expect.any(String) },
  storage: { status: 'ok', detail: 'local storage takes a write' },
  shutdown: { status: 'ok', detail: 'not shutting down' },
};

const harnesses: Harness[] = [];
async function harness(): Promise<Harness> {
  const h = await createHarness();
  harnesses.push(h);
  return h;
}
afterEach(async () => { await Promise.all(harnesses.splice(0).map((h) => h.close())); });

describe('getReadiness: readiness (GET /health/ready)', () => {
  it('is ready, without credentials, when every check is ok', async () => {
    const h = await harness();
    const res = await h.call({ method: 'GET', url: READY, apiKey: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', version: expect.any(String), checks: OK_CHECKS });
    // Both databases give the app a change feed: the cache is on and hears its notices.
    expect(res.json().checks.notices.detail).toBe('receiving credential notices');
  });

  it('is not ready, with Retry-After, when the database does not answer', async () => {
    const h = await harness();
    await h.loseDatabase();
    const res = await h.call({ method: 'GET', url: READY, apiKey: null });
    expect(res.statusCode).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const body = res.json();
    expect(body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', code: 'NOT_READY' });
    expect(body.message).toContain('database');
    expect(body.checks.database).toEqual({ status: 'failing', detail: expect.stringMatching(/^the database: /) });
    expect(body.checks.storage.status).toBe('ok');
    expect(body.checks.shutdown.status).toBe('ok');
  });

  it('is not ready when the database is behind the migrations this code has', async () => {
    const h = await harness();
    await sql`delete from kysely_migration where name = ${LATEST_MIGRATION}`.execute(h.db);
    const res = await h.call({ method: 'GET', url: READY, apiKey: null });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    const body = res.json();
    expect(body.message).toBe('Not ready: database');
    const previous = (await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(h.db)).rows[0].name;
    expect(body.checks).toEqual({ ...OK_CHECKS, database: { status: 'failing', detail: `the database is at migration ${previous}; this code expects ${LATEST_MIGRATION}` } });
  });

  it('is not ready once the shutdown began, and refuses a new request with 503 SHUTTING_DOWN and Retry-After; /health stays live', async () => {
    const h = await harness();
    const before = await h.app.inject({ method: 'GET', url: '/api/v1/currencies', headers: { 'api-key': h.apiKey } });
    expect(before.statusCode).toBe(200);

    h.app.beginShutdown('SIGTERM');

    const ready = await h.call({ method: 'GET', url: READY, apiKey: null });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBeDefined();
    expect(ready.json()).toMatchObject({ code: 'NOT_READY', message: 'Not ready: shutdown' });
    expect(ready.json().checks).toEqual({ ...OK_CHECKS, shutdown: { status: 'failing', detail: 'shutting down (SIGTERM): finishing in-flight requests' } });

    // An ordinary request (its operation declares no 503: app.inject, not the harness's contract check).
    const refused = await h.app.inject({ method: 'GET', url: '/api/v1/currencies', headers: { 'api-key': h.apiKey } });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(checkErrorShape(503, refused.json())).toEqual([]);
    expect(refused.json()).toMatchObject({ code: 'SHUTTING_DOWN', error: 'Service Unavailable' });

    const live = await h.call({ method: 'GET', url: '/api/v1/health', apiKey: null });
    expect(live.statusCode).toBe(200);
  });
});
