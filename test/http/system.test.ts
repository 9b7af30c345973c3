import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { createHarness, type Harness } from '../helpers/harness.js';

/** The newest recorded release (spec/releases/releases.yaml): the version the contract and the API say. */
const released: string = parse(readFileSync('spec/releases/releases.yaml', 'utf8')).releases[0].version;

let h: Harness;
beforeAll(async () => { h = await createHarness(); });
afterAll(async () => { await h.close(); });

describe('system', () => {
  it('answers health without credentials, with the version of the newest release', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/health', apiKey: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', version: released });
  });

  it('serves the bundled contract', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/openapi.json', apiKey: null });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(released);
    expect(doc.servers.map((s: { description: string }) => s.description)).toEqual(['sandbox', 'production']);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(['apiKey', 'bearerAuth']));
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Api-Key' });
  });

  it('answers unknown routes with the error shape', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, requestId: expect.any(String), message: 'Route GET /api/v1/no-such-thing not found', error: 'Not Found', code: 'ROUTE_NOT_FOUND' });
  });

  it('sets security headers', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
  });
});
