import { operationIndex } from '../../server/platform/openapi.js';
import { createHarness, type Harness } from '../helpers/harness.js';

/**
 * The contract as the app serves it (moved from test/static/contract.test.ts, which needs no app):
 * the routes are the contract's operations, and the harness's drift check fails a test whose
 * handler answers what the contract does not say.
 */

let h: Harness;
// With a METRICS_TOKEN, so GET /metrics (routed only then) is served too.
beforeAll(async () => { h = await createHarness({ metricsToken: 'metrics-token-of-the-route-inventory-000' }); });
afterAll(async () => { await h.close(); });

const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

describe('route inventory', () => {
  it('serves exactly the operations of the contract: none missing, none extra, no debug routes', () => {
    const served = h.app.routeTable
      .filter((route) => HTTP_METHODS.has(route.method))
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    const declared = [...operationIndex().values()]
      .map((op) => `${op.method} /api/v1${op.path.replace(/\{(\w+)\}/g, ':$1')}`)
      .sort();
    expect(served).toEqual(declared);
  });

  it('leaves GET /metrics out without a METRICS_TOKEN', async () => {
    const off = await createHarness();
    try {
      expect(off.app.routeTable.filter((route) => route.url === '/api/v1/metrics')).toEqual([]);
      expect(off.app.routeTable.filter((route) => route.url === '/api/v1/health')).not.toEqual([]);
    } finally {
      await off.close();
    }
  });

});

describe('response drift', () => {
  it('fails a test whose handler answers a field the contract does not declare', async () => {
    const planted = await createHarness({}, {
      beforeReady: (app) => app.addHook('preSerialization', async (request, _reply, payload) =>
        ((request.routeOptions.config as { operationId?: string }).operationId === 'getHealth'
          ? { ...(payload as object), leaked: 'internal detail' } : payload)),
    });
    try {
      await expect(planted.call({ method: 'GET', url: '/api/v1/health' })).rejects.toThrow(/getHealth answered something its contract does not say/);
      // Other operations are untouched.
      expect((await planted.call({ method: 'GET', url: '/api/v1/openapi.json' })).statusCode).toBe(200);
    } finally {
      await planted.close();
    }
  });

  it('fails a test whose handler answers a value of the wrong type', async () => {
    const planted = await createHarness({}, {
      beforeReady: (app) => app.addHook('preSerialization', async (request, _reply, payload) =>
        ((request.routeOptions.config as { operationId?: string }).operationId === 'listCurrencies'
          ? { ...(payload as object), statusCode: '200' } : payload)),
    });
    try {
      await expect(planted.call({ method: 'GET', url: '/api/v1/currencies' })).rejects.toThrow(/listCurrencies answered something/);
    } finally {
      await planted.close();
    }
  });

  it('fails a test whose answer breaks its schema in a way the serializer lets through (an enum)', async () => {
    const planted = await createHarness({}, {
      beforeReady: (app) => app.addHook('preSerialization', async (request, _reply, payload) =>
        ((request.routeOptions.config as { operationId?: string }).operationId === 'getHealth'
          ? { ...(payload as object), status: 'wonderful' } : payload)),
    });
    try {
      await expect(planted.call({ method: 'GET', url: '/api/v1/health' }))
        .rejects.toThrow(/getHealth answered 200 against its contract:\n- body does not match the 200 schema/);
    } finally {
      await planted.close();
    }
  });

  it('fails a test whose answer has a status the contract does not declare', async () => {
    const planted = await createHarness({}, {
      beforeReady: (app) => app.addHook('onSend', async (request, reply, payload) => {
        if ((request.routeOptions.config as { operationId?: string }).operationId === 'listCurrencies') reply.code(202);
        return payload;
      }),
    });
    try {
      await expect(planted.call({ method: 'GET', url: '/api/v1/currencies' })).rejects.toThrow(/status 202 is not declared for listCurrencies/);
    } finally {
      await planted.close();
    }
  });
});
