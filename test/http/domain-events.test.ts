import { individualBody, onlineProductId, plusDays, signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { sandboxStaff, staffSession } from '../helpers/staff.js';
import { recordEvent, type EventReactions, type EventServices } from '../../server/platform/events.js';
import { TenantScope } from '../../server/platform/tenancy.js';

/**
 * Effects across nouns go through business events recorded in the transaction that made the change
 * (server/domain/README.md, "Effects across nouns"): money records `invoice.paid` and the policies
 * move on; a closure's approval records `policyClosure.approved` and the money side stops billing;
 * a mandate records `directDebit.created` and its policy waits for debits. Each row names who,
 * what and when; a reaction that fails takes the event and the change down with it.
 */

let h: Harness;
let productId: string;
let head: string;
const HEAD = sandboxStaff('head.claims');

beforeAll(async () => {
  h = await createHarness();
  productId = await onlineProductId(h, 'HOME');
  head = (await staffSession(h, 'head.claims')).token;
}, 120_000);
afterAll(async () => { await h.close(); });

async function clientWithPolicy() {
  const { token, account } = await signUp(h, individualBody());
  const res = await h.call({
    method: 'POST', url: '/api/v1/client/policies', token, payload: {
      policyType: 'HOME', currency: 'GHS', startDate: plusDays(0), endDate: plusDays(364), productId, businessType: 'NEW_BUSINESS',
      assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }],
    },
  });
  expect(res.statusCode).toBe(201);
  const policy = res.json().data;
  return { token, clientId: account.id as string, policyId: policy.id as string, invoiceId: policy.invoice.id as string,
    invoiceNo: policy.invoice.invoiceNo as string, amount: policy.invoice.amount as number };
}
const cash = async (token: string, invoiceId: string, amount: number) => {
  const res = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token, payload: { invoiceId, paymentMethod: 'CASH', amount } });
  expect(res.statusCode).toBe(201);
  return res.json().data.id as string;
};
const approvePayment = async (id: string) =>
  expect((await h.call({ method: 'POST', url: `/api/v1/staff/transactions/${id}/approve`, token: head })).statusCode).toBe(200);
const eventsOf = (objectId: string, type?: string) => h.db.selectFrom('domain_events').selectAll().where('object_id', '=', objectId)
  .$if(type !== undefined, (qb) => qb.where('type', '=', type!)).orderBy('created_at').execute();
const stateOf = async (policyId: string) => (await h.db.selectFrom('policies').select('state').where('id', '=', policyId).executeTakeFirstOrThrow()).state;

describe('approveTransaction records invoice.paid, and the policy it bills moves on', () => {
  test('a part payment records nothing; the one that pays the invoice in full records invoice.paid by the approver, and the policy is ACTIVE', async () => {
    const client = await clientWithPolicy();
    await approvePayment(await cash(client.token, client.invoiceId, 100));
    expect(await eventsOf(client.invoiceId, 'invoice.paid')).toEqual([]);
    expect(await stateOf(client.policyId)).toBe('PROCESSING');

    await approvePayment(await cash(client.token, client.invoiceId, client.amount - 100));
    const events = await eventsOf(client.invoiceId, 'invoice.paid');
    expect(events).toEqual([expect.objectContaining({
      tenant_id: h.tenantId, type: 'invoice.paid', actor_kind: 'staff', actor_id: HEAD.id, object_type: 'invoice', object_id: client.invoiceId,
      data: { invoiceNo: client.invoiceNo }, previous: { status: 'PARTIALLY_PAID' },
    })]);
    expect(await stateOf(client.policyId)).toBe('ACTIVE');
    // The policy's own history says why it moved, as the reaction wrote it.
    const moved = await h.db.selectFrom('policy_state_changes').select(['from_state', 'to_state', 'notes']).where('policy_id', '=', client.policyId)
      .where('to_state', '=', 'ACTIVE').executeTakeFirstOrThrow();
    expect(moved).toEqual({ from_state: 'PROCESSING', to_state: 'ACTIVE', notes: 'Invoice paid in full' });
  });
});

describe('createDirectDebit records directDebit.created, and the policy waits for its debits', () => {
  test('the client is the actor; the policy moves PROCESSING -> AWAITING_DEBIT', async () => {
    const client = await clientWithPolicy();
    const res = await h.call({ method: 'POST', url: '/api/v1/client/direct-debits', token: client.token,
      payload: { policyId: client.policyId, frequency: 'MONTHLY', startDate: plusDays(1), mobileNumber: '+233241234567' } });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id;
    expect(await eventsOf(id, 'directDebit.created')).toEqual([expect.objectContaining({
      type: 'directDebit.created', actor_kind: 'client', actor_id: client.clientId, object_type: 'directDebit', data: { policyId: client.policyId },
    })]);
    expect(await stateOf(client.policyId)).toBe('AWAITING_DEBIT');
  });
});

describe('approvePolicyClosure records policyClosure.approved, and the money side stops billing', () => {
  test('the invoice billing the policy alone is named in the event and voided; the client hears what followed', async () => {
    const client = await clientWithPolicy();
    const pending = await cash(client.token, client.invoiceId, 100);
    const asked = await h.call({ method: 'POST', url: '/api/v1/client/policies/closure', token: client.token,
      payload: { policyId: client.policyId, reason: 'Sold the house' } });
    expect(asked.statusCode).toBe(201);
    const closureId = asked.json().data.id;
    const exec = (await staffSession(h, 'exec')).token;
    expect((await h.call({ method: 'POST', url: `/api/v1/staff/policy-closures/${closureId}/approve`, token: exec, payload: {} })).statusCode).toBe(200);

    expect((await eventsOf(closureId)).filter((event) => event.type === 'policyClosure.approved')).toEqual([expect.objectContaining({
      type: 'policyClosure.approved', actor_kind: 'staff', actor_id: sandboxStaff('exec').id, object_type: 'policyClosure',
      data: { policyId: client.policyId, policyNo: expect.any(String), invoiceIds: [client.invoiceId] }, previous: { status: 'PENDING_REVIEW' },
    })]);
    expect(await stateOf(client.policyId)).toBe('CANCELLED');
    const invoice = await h.db.selectFrom('invoices').select(['voided_at', 'void_reason']).where('id', '=', client.invoiceId).executeTakeFirstOrThrow();
    expect(invoice.voided_at).not.toBeNull();
    const payment = await h.db.selectFrom('transactions').select('status').where('id', '=', pending).executeTakeFirstOrThrow();
    expect(payment.status).toBe('REJECTED');
    const notice = await h.db.selectFrom('notifications').select('body').where('client_id', '=', client.clientId)
      .where('title', 'like', 'Closure of policy % approved').executeTakeFirstOrThrow();
    expect(notice.body).toContain('1 payment awaiting approval is rejected');
    expect(notice.body).toContain(`invoice ${client.invoiceNo} is closed`);
  });
});

describe('recordEvent', () => {
  const event = (objectId: string) => ({ type: 'invoice.paid', actor: { by: 'system' as const, id: null }, object: { type: 'invoice', id: objectId }, data: {} });
  const objectId = () => crypto.randomUUID();
  /** The app's services recording events, with these reactions. */
  const reacting = (reactions: EventReactions): EventServices => ({ reactions, eventSnapshots: h.app.services.eventSnapshots });

  test('answers what each reaction did, in order, and keeps the row', async () => {
    const id = objectId();
    const reactions: EventReactions = async (_scope, recorded) => [`first saw ${recorded.type}`, `then ${recorded.object.id}`];
    const followed = await new TenantScope(h.db, h.tenantId).transaction((scope) => recordEvent(reacting(reactions), scope, event(id), new Date()));
    expect(followed).toEqual(['first saw invoice.paid', `then ${id}`]);
    expect(await eventsOf(id)).toHaveLength(1);
  });

  test('a reaction that fails rolls back the event and what the transaction wrote before it', async () => {
    const [before, failed] = [objectId(), objectId()];
    const quiet: EventReactions = async () => [];
    const failing: EventReactions = async () => { throw new Error('reaction failed'); };
    await expect(new TenantScope(h.db, h.tenantId).transaction(async (scope) => {
      await recordEvent(reacting(quiet), scope, event(before), new Date());
      return recordEvent(reacting(failing), scope, event(failed), new Date());
    })).rejects.toThrow('reaction failed');
    expect(await eventsOf(before)).toEqual([]);
    expect(await eventsOf(failed)).toEqual([]);
  });
});
