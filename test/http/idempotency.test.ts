import { activePolicy, standardClaim } from '../helpers/claims.js';
import { castOfClients, individualBody, onlineProductId, plusDays, staffClientBody, type Caller, auth } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { file, JPEG, multipart, PDF } from '../helpers/multipart.js';
import { staffSession } from '../helpers/staff.js';

/**
 * The Idempotency-Key every create takes (server/platform/idempotency.ts, applied to each operation
 * that declares the header by server/app/routes.ts): the first answer replayed, work done once, per
 * caller and operation; another request with the key 422; a failure keeps nothing.
 */

let h: Harness;
let token: string;
let clientId: string;
let otherToken: string;
let staffToken: string;
let productId: string;

beforeAll(async () => {
  h = await createHarness();
  ({ token, clientId, otherToken } = await castOfClients(h));
  staffToken = (await staffSession(h, 'exec')).token;
  productId = await onlineProductId(h, 'HOME');
});
afterAll(async () => { await h.close(); });

const homeBody = (extra: Record<string, unknown> = {}) => ({
  policyType: 'HOME', currency: 'GHS', startDate: plusDays(10), endDate: plusDays(374), productId, businessType: 'NEW_BUSINESS',
  assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }], ...extra,
});
const post = (url: string, payload: unknown, key: string | undefined, as: Caller = token) =>
  h.call({ method: 'POST', url: `/api/v1${url}`, ...auth(as), payload: payload as object, headers: key ? { 'idempotency-key': key } : {} });
const policiesOf = async (owner: string) => (await h.db.selectFrom('policies').select('id').where('client_id', '=', owner).execute()).map((p) => p.id);

describe('createPolicy, createHomePolicy: POST /client/policies with an Idempotency-Key', () => {
  it('a retry with the same key and body answers the same policy (201, Idempotent-Replayed) and creates one', async () => {
    const before = await policiesOf(clientId);
    const first = await post('/client/policies', homeBody(), 'policy-once-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post('/client/policies', homeBody(), 'policy-once-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect((await policiesOf(clientId)).filter((id) => !before.includes(id))).toEqual([first.json().data.id]);
  });

  it('the same key with another body answers 422 IDEMPOTENCY_KEY_REUSED naming the key, and writes nothing', async () => {
    const first = await post('/client/policies', homeBody(), 'policy-reuse-1');
    expect(first.statusCode).toBe(201);
    const before = await policiesOf(clientId);
    const other = await post('/client/policies', homeBody({ startDate: plusDays(11), endDate: plusDays(375) }), 'policy-reuse-1');
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(other.json().message).toContain('policy-reuse-1');
    expect(await policiesOf(clientId)).toEqual(before);
  });

  it('keys are per operation: the typed create with the key of a createPolicy is a new request', async () => {
    const first = await post('/client/policies', homeBody(), 'policy-op-1');
    const typed = await post('/client/policies/home', homeBody(), 'policy-op-1');
    expect(typed.statusCode).toBe(201);
    expect(typed.headers['idempotent-replayed']).toBeUndefined();
    expect(typed.json().data.id).not.toBe(first.json().data.id);
    const replayed = await post('/client/policies/home', homeBody(), 'policy-op-1');
    expect(replayed.json().data.id).toBe(typed.json().data.id);
  });

  it('a key of one client is not seen by another client (no replay across callers)', async () => {
    const mine = await post('/client/policies', homeBody(), 'shared-key-1');
    const theirs = await post('/client/policies', homeBody(), 'shared-key-1', otherToken);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().data.id).not.toBe(mine.json().data.id);
    // Nor another body from them a 422: the key is theirs alone.
    expect((await post('/client/policies', homeBody({ startDate: plusDays(12), endDate: plusDays(376) }), 'shared-key-1', otherToken)).statusCode).toBe(422);
  });

  it('a failed create (4xx) keeps nothing: a retry with the same key and a good body succeeds', async () => {
    const before = await policiesOf(clientId);
    const failed = await post('/client/policies', homeBody({ productId: '00000000-0000-4000-8000-000000000001' }), 'policy-fail-1');
    expect(failed.statusCode).toBeGreaterThanOrEqual(400);
    expect(failed.statusCode).toBeLessThan(500);
    expect(await h.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'policy-fail-1').execute()).toEqual([]);
    const retried = await post('/client/policies', homeBody(), 'policy-fail-1');
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect((await policiesOf(clientId)).filter((id) => !before.includes(id))).toEqual([retried.json().data.id]);
  });

  it('two concurrent requests with one key create one policy and answer it both times', async () => {
    const before = await policiesOf(clientId);
    const answers = await Promise.all([post('/client/policies', homeBody(), 'policy-race-1'), post('/client/policies', homeBody(), 'policy-race-1')]);
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(answers[0].body).toBe(answers[1].body);
    expect(answers.map((r) => r.headers['idempotent-replayed']).sort()).toEqual(['true', undefined]);
    expect((await policiesOf(clientId)).filter((id) => !before.includes(id))).toEqual([answers[0].json().data.id]);
  });

  it('without a key every request creates (nothing changes for callers who send none)', async () => {
    const a = await post('/client/policies', homeBody(), undefined);
    const b = await post('/client/policies', homeBody(), undefined);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().data.id).not.toBe(b.json().data.id);
  });
});

describe('createClaim: POST /client/claims with an Idempotency-Key', () => {
  it('a retried claim is made once and answered the same', async () => {
    const policy = await activePolicy(h, token, productId);
    const body = standardClaim(h, policy);
    const first = await post('/client/claims', body, 'claim-once-1');
    expect(first.statusCode).toBe(201);
    const again = await post('/client/claims', body, 'claim-once-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    const claims = await h.db.selectFrom('claims').select('id').where('policy_id', '=', policy.id).execute();
    expect(claims.map((c) => c.id)).toEqual([first.json().data.id]);
  });
});

describe('uploadDocuments: POST /client/documents with an Idempotency-Key', () => {
  it('for an upload the key alone identifies the request: a retry stores nothing and replays the first documents', async () => {
    const upload = (parts: Parameters<typeof multipart>[0]) => {
      const { payload, headers } = multipart(parts);
      return h.call({ method: 'POST', url: '/api/v1/client/documents', token, payload, headers: { ...headers, 'idempotency-key': 'upload-once-1' } });
    };
    const count = async () => (await h.db.selectFrom('documents').select('id').where('client_id', '=', clientId).execute()).length;
    const first = await upload([file('ghana-card.pdf', PDF, 'application/pdf')]);
    expect(first.statusCode).toBe(201);
    const stored = await count();
    const again = await upload([file('bumper.jpg', JPEG)]);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await count()).toBe(stored);
  });
});

describe('createStaffClient, createPolicyForClient: staff creates with an Idempotency-Key', () => {
  it('a retried createStaffClient opens one account and answers it again', async () => {
    const body = staffClientBody(individualBody());
    const first = await post('/staff/clients', body, 'staff-client-1', staffToken);
    expect(first.statusCode).toBe(201);
    const again = await post('/staff/clients', body, 'staff-client-1', staffToken);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(await h.db.selectFrom('clients').select('id').where('email', '=', body.email as string).execute()).toHaveLength(1);
    // The staff member's key, not the client's: the same key from a client on its own operation is its own.
    const keys = await h.db.selectFrom('idempotency_keys').select(['actor_kind', 'operation']).where('key', '=', 'staff-client-1').execute();
    expect(keys).toEqual([{ actor_kind: 'staff', operation: 'createStaffClient' }]);
  });

  it('a retried createPolicyForClient sells one policy', async () => {
    const before = await policiesOf(clientId);
    const first = await post(`/staff/clients/${clientId}/policies`, homeBody(), 'staff-sale-1', staffToken);
    expect(first.statusCode).toBe(201);
    const again = await post(`/staff/clients/${clientId}/policies`, homeBody(), 'staff-sale-1', staffToken);
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect((await policiesOf(clientId)).filter((id) => !before.includes(id))).toEqual([first.json().data.id]);
    // The same key for another client (another path) is another request.
    const { clientId: otherId } = await castOfClients(h);
    expect((await post(`/staff/clients/${otherId}/policies`, homeBody(), 'staff-sale-1', staffToken)).statusCode).toBe(422);
  });
});
