import { sql } from 'kysely';
import { DEFAULT_SANDBOX_OPERATOR_KEY } from '../../server/platform/config.js';
import { codeSentTo, individualBody, onlineProductId, plusDays, signUp, staffClientBody } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { file, JPEG, multipart } from '../helpers/multipart.js';
import { sandboxStaff, staffSession } from '../helpers/staff.js';

/**
 * The audit trail: every row a staff member's or the operator's call writes is recorded in the
 * same transaction, with who (and their position), the operation, the row, the fields before and
 * after, when, the request id and the address; executive managers and the operator read it; the
 * database refuses to change or delete it.
 */

let h: Harness;
type Handle = 'exec' | 'branchManager' | 'headSales' | 'headClaims' | 'officer';
let tokens: Record<Handle, string>;
let productId: string;
const OFFICER = sandboxStaff('officer');
const HEAD_SALES = sandboxStaff('head.sales');
const EXEC = sandboxStaff('exec');
const BRANCH_MANAGER = sandboxStaff('branch.manager');
const OPERATOR = { 'operator-key': DEFAULT_SANDBOX_OPERATOR_KEY };

beforeAll(async () => {
  h = await createHarness();
  tokens = {
    exec: (await staffSession(h, 'exec')).token, branchManager: (await staffSession(h, 'branch.manager')).token,
    headSales: (await staffSession(h, 'head.sales')).token, headClaims: (await staffSession(h, 'head.claims')).token,
    officer: (await staffSession(h, 'officer')).token,
  };
  productId = await onlineProductId(h, 'HOME');
}, 120_000);
afterAll(async () => { await h.close(); });

const call = async (token: string, method: 'GET' | 'POST', url: string, payload?: object, status?: number) => {
  const res = await h.call({ method, url: `/api/v1${url}`, token, ...(payload && { payload }) });
  if (status !== undefined) expect({ status: res.statusCode, body: res.statusCode === status ? undefined : res.json() }).toEqual({ status, body: undefined });
  return res;
};
type Event = {
  id: string; at: string; actor: { kind: string; id: string | null; position: string | null; fullName: string | null };
  action: string; entity: { type: string; id: string }; change: string; before: Record<string, unknown> | null;
  after: Record<string, unknown> | null; requestId: string; address: string | null;
};
/** The trail as the executive manager reads it, with these filters (every page, through the cursor). */
async function trail(query: Record<string, string> = {}, token = tokens.exec): Promise<Event[]> {
  const events: Event[] = [];
  let after: string | null | undefined;
  do {
    const params = new URLSearchParams({ ...query, limit: '50', ...(after ? { after } : {}) });
    const res = await call(token, 'GET', `/staff/audit-events?${params}`, undefined, 200);
    events.push(...res.json().data);
    after = res.json().paginator.nextCursor;
  } while (after);
  return events;
}
const byStaff = (member: { id: string; firstName: string; lastName: string; position: string }) =>
  ({ kind: 'staff', id: member.id, position: member.position, fullName: `${member.firstName} ${member.lastName}` });

describe('a walk-in client served at the counter, as the audit trail shows it', () => {
  it('records every decision with its actor, position, row and fields, in the decision\'s request; reads and refusals leave nothing', async () => {
    // Opened, sold to, paid in cash (recorded by the officer, approved by the head of sales).
    const client = (await call(tokens.officer, 'POST', '/staff/clients', staffClientBody(individualBody()), 201)).json().data;
    const policy = (await call(tokens.officer, 'POST', `/staff/clients/${client.id}/policies`, {
      policyType: 'HOME', currency: 'GHS', startDate: plusDays(0), endDate: plusDays(364), productId, businessType: 'NEW_BUSINESS',
      assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }],
    }, 201)).json().data;
    const payment = (await call(tokens.officer, 'POST', '/staff/transactions', { invoiceId: policy.invoice.id, paymentMethod: 'CASH' }, 201)).json().data;
    // The recorder approving its own cash is refused (four eyes): the refusal writes nothing.
    await call(tokens.officer, 'POST', `/staff/transactions/${payment.id}/approve`, { notes: 'Mine' });
    await call(tokens.headSales, 'POST', `/staff/transactions/${payment.id}/approve`, { notes: 'Cash counted' }, 200);
    await call(tokens.officer, 'GET', `/staff/transactions/${payment.id}/receipt.pdf`, undefined, 200);

    // A photo and a claim filed by the officer; reviewed and moved by the executive, settled by the branch manager.
    const { payload, headers } = multipart([file('bumper.jpg', JPEG)]);
    const upload = await h.call({ method: 'POST', url: `/api/v1/staff/clients/${client.id}/documents`, payload, headers, token: tokens.officer });
    expect(upload.statusCode).toBe(201);
    const [photo] = upload.json().data;
    const claim = (await call(tokens.officer, 'POST', `/staff/clients/${client.id}/claims`, {
      policyId: policy.id, dateOfLoss: plusDays(0), incidentLocation: 'East Legon, Accra', lossCategory: 'MEDICALS',
      estimatedLossAmount: 1200, assets: [policy.assets[0].id], documentIds: [photo.id],
    }, 201)).json().data;
    await call(tokens.exec, 'POST', `/staff/claims/${claim.id}/reviews`, { generalNotes: 'Seen on site', adjustedSettlementAmount: 1000 }, 201);
    await call(tokens.exec, 'POST', `/staff/claims/${claim.id}/stage`, { stage: 'SETTLEMENT', notes: 'Agreed' }, 200);
    await (call(tokens.branchManager, 'POST', `/staff/claims/${claim.id}/settlements`, {
      amount: 1000, recipient: 'Kofi Mensah', paymentDate: plusDays(0), paymentMethod: 'BANK_TRANSFER', paymentMethodInfo: 'GCB 1234567890',
    }, 201));

    // A closure requested by the officer, approved by the head of sales.
    const closure = (await call(tokens.officer, 'POST', `/staff/clients/${client.id}/policy-closures`, {
      policyId: policy.id, reason: 'The client is moving abroad for good',
    }, 201)).json().data;
    await call(tokens.headSales, 'POST', `/staff/policy-closures/${closure.id}/approve`, { notes: 'Agreed at the counter' }, 200);

    const one = async (entityId: string, action: string) => {
      const events = await trail({ entityId, action });
      expect(events).toHaveLength(1);
      return events[0];
    };
    expect(await one(client.id, 'createStaffClient')).toMatchObject({
      actor: byStaff(OFFICER), entity: { type: 'Client', id: client.id }, change: 'created', before: null,
      after: { firstName: client.firstName, createdByStaffId: OFFICER.id, originatingStaffId: OFFICER.id },
      requestId: expect.any(String), address: '127.0.0.1',
    });
    expect(await one(policy.id, 'createPolicyForClient')).toMatchObject({ actor: byStaff(OFFICER), entity: { type: 'Policy' }, change: 'created', after: { state: policy.state, premium: policy.premium } });
    expect(await one(payment.id, 'createTransactionForClient')).toMatchObject({ actor: byStaff(OFFICER), change: 'created', after: { status: 'PENDING_APPROVAL', paymentMethod: 'CASH' } });
    // Approving is one decision over two rows: the payment and the policy it activated, one request.
    const approval = await one(payment.id, 'approveTransaction');
    expect(approval).toMatchObject({
      actor: byStaff(HEAD_SALES), change: 'updated',
      before: { status: 'PENDING_APPROVAL', reviewedByStaffId: null }, after: { status: 'APPROVED', reviewedByStaffId: HEAD_SALES.id },
    });
    const activation = await one(policy.id, 'approveTransaction');
    expect(activation).toMatchObject({ actor: byStaff(HEAD_SALES), requestId: approval.requestId, before: { state: policy.state }, after: { state: 'ACTIVE' } });
    expect(Object.keys(approval.after!).sort()).toEqual(Object.keys(approval.before!).sort()); // the changed fields only
    expect(await trail({ entityId: payment.id })).toHaveLength(2); // created, approved: the refused self-approval and the receipt left nothing

    expect(await one(photo.id, 'uploadDocumentsForClient')).toMatchObject({ actor: byStaff(OFFICER), entity: { type: 'Document' }, change: 'created' });
    expect(await one(claim.id, 'createClaimForClient')).toMatchObject({ actor: byStaff(OFFICER), entity: { type: 'Claim' }, after: { stage: 'REVIEW' } });
    const [review] = await trail({ action: 'reviewClaim', entityType: 'ClaimReview', actorId: EXEC.id });
    expect(review).toMatchObject({ actor: byStaff(EXEC), change: 'created', after: { claimId: claim.id, adjustedSettlementAmount: 1000 } });
    expect(await one(claim.id, 'moveClaimStage')).toMatchObject({ actor: byStaff(EXEC), before: { stage: 'REVIEW' }, after: { stage: 'SETTLEMENT' } });
    expect(await one(claim.id, 'settleClaim')).toMatchObject({ actor: byStaff(BRANCH_MANAGER), entity: { type: 'Claim' }, after: { stage: 'SETTLED' } });
    const paidOut = (await trail({ action: 'settleClaim', entityType: 'ClaimSettlement' })).filter((event) => event.after?.claimId === claim.id);
    expect(paidOut).toMatchObject([{ actor: byStaff(BRANCH_MANAGER), change: 'created', after: { amount: 1000, recipient: 'Kofi Mensah' } }]);
    expect(await one(closure.id, 'requestPolicyClosureForClient')).toMatchObject({ actor: byStaff(OFFICER), after: { status: 'PENDING_REVIEW' } });
    expect(await one(closure.id, 'approvePolicyClosure')).toMatchObject({ actor: byStaff(HEAD_SALES), before: { status: 'PENDING_REVIEW' }, after: { status: 'APPROVED' } });
    expect(await one(policy.id, 'approvePolicyClosure')).toMatchObject({ actor: byStaff(HEAD_SALES), after: { state: 'CANCELLED' } });

    // What the officer did that day, newest first; nothing read is there.
    const officerDay = await trail({ actorId: OFFICER.id, createdFrom: plusDays(0), createdTo: plusDays(0) });
    expect(officerDay.every((event) => event.actor.id === OFFICER.id)).toBe(true);
    expect(new Set(officerDay.map((event) => event.action))).toEqual(new Set([
      'createStaffClient', 'createPolicyForClient', 'createTransactionForClient', 'uploadDocumentsForClient', 'createClaimForClient',
      'requestPolicyClosureForClient',
    ]));
    const times = officerDay.map((event) => event.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(await trail({ actorId: OFFICER.id, createdFrom: plusDays(1) })).toEqual([]);
  });

  it('records nothing a client does in its app', async () => {
    const { account, token } = await signUp(h, individualBody());
    await call(token, 'POST', '/client/account', { firstName: 'Renamed' });
    expect(await trail({ entityId: account.id })).toEqual([]);
  });
});

describe('what the trail covers', () => {
  /** Tables no staff or operator decision writes as such, each with why it has no audit trigger. */
  const NOT_AUDITED: Record<string, string> = {
    audit_events: 'the trail itself',
    domain_events: 'written with the change they describe, which is audited',
    outbox: 'messages a change sends; the change is audited',
    jobs: 'work queued by a change or by the platform',
    revoked_tokens: 'sign-outs, not decisions',
    refresh_tokens: 'sessions, not decisions; a staff member\'s reused refresh token is recorded on their row, which is audited',
    rate_limit_buckets: 'counters',
    idempotency_keys: 'replay records of calls whose changes are audited',
    tenant_sequences: 'number counters taken by audited rows',
    countries: 'reference data, migrations only', currencies: 'reference data, migrations only',
    vehicle_makes: 'reference data, migrations only', vehicle_body_types: 'reference data, migrations only',
    vehicle_schedule_types: 'reference data, migrations only',
    delivery_addresses: 'the client\'s own, kept only by the client',
    notifications: 'inbox state (read or not) of their owner',
    cart_items: 'the client\'s cart; a checkout\'s policies and invoice are audited',
    invoice_items: 'written once with their invoice, which is audited',
    policy_state_changes: 'the policy\'s own history; the state change is audited on the policy',
    transaction_state_changes: 'the payment\'s own history; the change is audited on the payment',
    claim_state_changes: 'the claim\'s own history; the change is audited on the claim',
    claim_assets: 'filed once with their claim, which is audited',
    claim_third_party_losses: 'filed once with their claim, which is audited',
    policy_renewal_reminders: 'sent by the platform on its own',
    payment_events: 'the payment provider\'s webhooks, not a staff decision',
    direct_debit_runs: 'collections the platform runs on its own',
    webhook_deliveries: 'the platform delivering events; the endpoint itself is audited',
    webhook_attempts: 'the platform delivering events; the endpoint itself is audited',
  };

  it('has a trigger on every table but those listed with a reason: a new table is one or the other', async () => {
    const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'`.execute(h.db);
    const audited = await sql<{ table_name: string }>`select distinct event_object_table as table_name from information_schema.triggers
      where trigger_schema = current_schema() and trigger_name = event_object_table || '_audit'`.execute(h.db);
    const withTrigger = new Set(audited.rows.map((row) => row.table_name));
    const unaccounted = tables.rows.map((row) => row.table_name).filter((table) => !withTrigger.has(table) && !(table in NOT_AUDITED));
    expect(unaccounted).toEqual([]);
    expect([...withTrigger].filter((table) => table in NOT_AUDITED)).toEqual([]);
  });
});

describe('the trail cannot be changed', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of audit rows to the role the API uses', async () => {
    await call(tokens.exec, 'POST', '/staff/branches', { name: 'Kumasi Adum', address: 'Prempeh II Street, Kumasi' }, 201);
    const before = await h.db.selectFrom('audit_events').select(['id', 'action']).orderBy('created_at').execute();
    expect(before.length).toBeGreaterThan(0);
    await expect(h.db.updateTable('audit_events').set({ action: 'nothing' }).execute()).rejects.toThrow(/append-only/);
    await expect(h.db.deleteFrom('audit_events').execute()).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_events`.execute(h.db)).rejects.toThrow(/append-only/);
    expect(await h.db.selectFrom('audit_events').select(['id', 'action']).orderBy('created_at').execute()).toEqual(before);
  });
});

describe('listAuditEvents: GET /staff/audit-events', () => {
  it('is for executive managers: others 403, a client token 403, a bad filter or cursor 400', async () => {
    for (const token of [tokens.branchManager, tokens.headSales, tokens.officer]) {
      expect((await call(token, 'GET', '/staff/audit-events')).json().code).toBe('NOT_PERMITTED');
    }
    const { token } = await signUp(h, individualBody());
    expect((await call(token, 'GET', '/staff/audit-events')).json().code).toBe('WRONG_TOKEN_KIND');
    const bad = await call(tokens.exec, 'GET', '/staff/audit-events?action=drop%20table');
    expect({ status: bad.statusCode, message: bad.json().message }).toEqual({ status: 400, message: 'query.action is not an operationId' });
    expect((await call(tokens.exec, 'GET', '/staff/audit-events?after=abc&page=2')).statusCode).toBe(400);
    expect((await call(tokens.exec, 'GET', '/staff/audit-events?entityType=Nothing')).statusCode).toBe(400);
  });

  it('pages by cursor through every event once', async () => {
    const all = await trail();
    expect(all.length).toBeGreaterThan(5);
    expect(new Set(all.map((event) => event.id)).size).toBe(all.length);
    const first = (await call(tokens.exec, 'GET', '/staff/audit-events?limit=2', undefined, 200)).json();
    expect(first.paginator).toMatchObject({ itemsCount: all.length, nextCursor: expect.any(String) });
    expect(first.data.map((event: Event) => event.id)).toEqual(all.slice(0, 2).map((event) => event.id));
  });

  it('a staff member signed out, resetting their password with a code, is the actor; the hash is never shown', async () => {
    const member = sandboxStaff('head.claims');
    await h.call({ method: 'POST', url: '/api/v1/staff/auth/password/request-reset', payload: { username: member.email } });
    const resetCode = await codeSentTo(h, member.email);
    const reset = await h.call({ method: 'POST', url: '/api/v1/staff/auth/password/reset', payload: {
      username: member.email, resetCode, password: 'Cl41ms-Fresh-1', passwordConfirm: 'Cl41ms-Fresh-1',
    } });
    expect(reset.statusCode).toBe(200);
    const [event] = await trail({ entityId: member.id, action: 'resetStaffPassword' });
    expect(event).toMatchObject({
      actor: { kind: 'staff', id: member.id, position: null }, entity: { type: 'StaffMember', id: member.id },
      before: { passwordHash: '[redacted]' }, after: { passwordHash: '[redacted]' },
    });
    expect(JSON.stringify(await trail({ actorId: member.id }))).not.toMatch(/\$argon2/);
  });
});

describe('listCompanyAuditEvents: GET /operator/companies/{companyId}/audit-events', () => {
  const operator = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    h.call({ method, url: `/api/v1/operator/companies${url}`, apiKey: null, headers: OPERATOR, ...(payload && { payload }) });

  it('records the operator\'s key created and revoked under the company, and reads the company\'s trail; another company\'s is its own', async () => {
    const created = await operator('POST', `/${h.tenantId}/api-keys`, { name: 'mobile app 2027' });
    expect(created.statusCode).toBe(201);
    const key = created.json().data;
    expect((await operator('DELETE', `/${h.tenantId}/api-keys/${key.id}`)).statusCode).toBe(200);

    const res = await operator('GET', `/${h.tenantId}/audit-events?entityId=${key.id}`);
    expect(res.statusCode).toBe(200);
    const [revoked, made] = res.json().data as Event[];
    expect(made).toMatchObject({
      actor: { kind: 'operator', id: null, position: null, fullName: null }, action: 'createCompanyApiKey', change: 'created',
      entity: { type: 'CompanyApiKey', id: key.id }, after: { name: 'mobile app 2027', keyHash: '[redacted]' },
    });
    expect(JSON.stringify(made)).not.toContain(key.key);
    expect(revoked).toMatchObject({ action: 'revokeCompanyApiKey', before: { revokedAt: null }, after: { revokedAt: expect.any(String) } });
    // The executive managers see the operator's changes too.
    expect((await trail({ actorKind: 'operator', entityId: key.id })).map((event) => event.action)).toEqual(['revokeCompanyApiKey', 'createCompanyApiKey']);

    // The other company's trail has none of this company's events; an unknown company is 404.
    const other = (await operator('GET', `/${h.otherTenantId}/audit-events?entityId=${key.id}`)).json();
    expect(other.data).toEqual([]);
    expect((await operator('GET', '/00000000-0000-4000-8000-000000000000/audit-events')).statusCode).toBe(404);
    expect((await h.call({ method: 'GET', url: `/api/v1/operator/companies/${h.tenantId}/audit-events`, apiKey: null })).statusCode).toBe(401);
  });
});
