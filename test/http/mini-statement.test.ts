import { settlePayment } from '../../server/domain/money/payments.js';
import { TenantScope } from '../../server/platform/tenancy.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { individualBody, onlineProductId, plusDays, signUp } from '../helpers/clients.js';

let h: Harness;
let token: string;
let productId: string;

beforeAll(async () => {
  h = await createHarness();
  token = (await signUp(h)).token;
  productId = await onlineProductId(h, 'HOME');
});
afterAll(async () => { await h.close(); });

const get = async (url: string, as = token) => {
  const res = await h.call({ method: 'GET', url: `/api/v1/client/${url}`, token: as });
  expect(res.statusCode).toBe(200);
  return res.json();
};
async function policy(startDays: number, sumInsured: number, as = token) {
  const res = await h.call({ method: 'POST', url: '/api/v1/client/policies', token: as, payload: {
    policyType: 'HOME', currency: 'GHS', startDate: plusDays(startDays), endDate: plusDays(startDays + 364), productId, businessType: 'NEW_BUSINESS',
    assets: [{ sumInsured, usage: 'PRIVATE', location: 'Plot 7, Prempeh II Street, Adum' }],
  } });
  expect(res.statusCode).toBe(201);
  return res.json().data;
}
const pay = async (invoiceId: string, amount: number) => {
  const res = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token, payload: { invoiceId, paymentMethod: 'CASH', amount } });
  expect(res.statusCode).toBe(201);
  h.clock.advance(1000);
  return res.json().data;
};
const approve = (id: string) => new TenantScope(h.db, h.tenantId).transaction((scope) => settlePayment(h.app.services, scope, { transactionId: id, to: 'APPROVED', actor: { by: 'staff', id: null }, at: new Date() }));

describe('getMiniStatement: GET /client/account/mini-statement', () => {
  it('is empty for a new client', async () => {
    const fresh = (await signUp(h, individualBody())).token;
    expect((await get('account/mini-statement', fresh)).data).toMatchObject({
      policies: { total: 0, byState: {}, inForce: [] }, outstandingInvoices: { count: 0, totals: [], items: [] }, recentTransactions: [],
      openClaims: { count: 0, items: [] },
    });
  });

  it('shows policies, what is owed and the latest payments, agreeing with the list endpoints', async () => {
    const paid = await policy(0, 300000); // paid in full: ACTIVE, not owed
    const part = await policy(5, 450000); // part paid, part awaiting approval
    const unpaid = await policy(10, 200000);
    await approve((await pay(paid.invoice.id, paid.invoice.amount)).id);
    await approve((await pay(part.invoice.id, 100)).id);
    await pay(part.invoice.id, 50);
    for (let i = 0; i < 4; i += 1) await pay(unpaid.invoice.id, 10);

    const statement = (await get('account/mini-statement')).data;
    const policies = await get('policies?usePagination=false');
    expect(statement.policies.total).toBe(policies.paginator.itemsCount);
    expect(statement.policies.byState).toEqual({ ACTIVE: 1, PROCESSING: 2 });
    expect(statement.policies.inForce.map((p: { id: string }) => p.id)).toEqual([paid.id]);

    const invoices = (await get('invoices?usePagination=false')).data as Array<Record<string, any>>;
    const owed = invoices.filter((i) => !i.isClosed).sort((a, b) => a.invoiceNo.localeCompare(b.invoiceNo));
    expect(statement.outstandingInvoices.count).toBe(2);
    expect(statement.outstandingInvoices.items).toEqual(owed.map((i) => ({
      id: i.id, invoiceNo: i.invoiceNo, invoiceDate: i.invoiceDate, currency: i.currency, amount: i.amount, amountPaid: i.amountPaid,
      amountUnpaid: i.amountUnpaid, status: i.status, policyNos: i.policies.map((p: { policyNo: string }) => p.policyNo),
    })));
    const partInvoice = owed.find((i) => i.id === part.invoice.id)!;
    expect(partInvoice).toMatchObject({ amountPaid: 150, amountApproved: 100, status: 'PARTIALLY_PAID' });
    const totalOwed = owed.reduce((sum, i) => sum + Math.round(i.amountUnpaid * 100), 0) / 100;
    expect(statement.outstandingInvoices.totals).toEqual([{ currency: 'GHS', amountUnpaid: totalOwed, convertedAmountUnpaid: totalOwed }]);

    const transactions = (await get('transactions?limit=5')).data;
    expect(statement.recentTransactions).toEqual(transactions);
    expect(statement.recentTransactions).toHaveLength(5);
  });

  it('shows the open claims, agreeing with GET /client/claims?status=ACTIVE', async () => {
    const client = (await signUp(h, individualBody())).token;
    const insured = await policy(0, 300000, client);
    const paid = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token: client,
      payload: { invoiceId: insured.invoice.id, paymentMethod: 'CASH', amount: insured.invoice.amount } });
    await approve(paid.json().data.id);
    const claims = [];
    for (let i = 0; i < 7; i += 1) {
      const res = await h.call({ method: 'POST', url: '/api/v1/client/claims', token: client, payload: {
        policyId: insured.id, dateOfLoss: plusDays(0), incidentLocation: 'Plot 7, Prempeh II Street, Adum', lossCategory: 'MEDICALS',
        estimatedLossAmount: 100.05 + i, assets: [insured.assets[0].id],
      } });
      expect(res.statusCode).toBe(201);
      claims.push(res.json().data);
      h.clock.advance(1000);
    }
    // Staff closed one (the staff API comes later).
    await h.db.updateTable('claims').set({ status: 'CLOSED' }).where('id', '=', claims[6].id).execute();

    const statement = (await get('account/mini-statement', client)).data;
    const open = await get('claims?status=ACTIVE', client);
    expect(statement.openClaims.count).toBe(open.paginator.itemsCount);
    expect(statement.openClaims.count).toBe(6);
    expect(statement.openClaims.items).toEqual(open.data.slice(0, 5).map((c: Record<string, any>) => ({
      id: c.id, claimNo: c.claimNo, policyNo: c.policy.policyNo, status: c.status, stage: c.stage, claimType: c.claimType,
      lossCategory: c.lossCategory, estimatedLossAmount: c.estimatedLossAmount, currency: c.currency,
      dateOfNotification: c.dateOfNotification, createdAt: c.createdAt,
    })));
    expect(statement.openClaims.items[0].id).toBe(claims[5].id);
    expect((await get('account/mini-statement')).data.openClaims.items.map((c: { id: string }) => c.id)).not.toContain(claims[0].id);
  });

  it('shows another client nothing of this one\'s', async () => {
    const other = (await signUp(h, individualBody())).token;
    await policy(3, 100000);
    const statement = (await get('account/mini-statement', other)).data;
    expect(statement.policies.total).toBe(0);
    expect(statement.outstandingInvoices.count).toBe(0);
    expect(statement.openClaims).toEqual({ count: 0, items: [] });
  });
});

describe('getAccount: GET /client/account policies', () => {
  it('lists the 10 newest policies in short, with the count', async () => {
    const client = (await signUp(h, individualBody())).token;
    const made = [];
    for (let i = 0; i < 11; i += 1) {
      made.push(await policy(1, 100000 + i, client));
      h.clock.advance(1000);
    }
    const account = (await get('account', client)).data;
    expect(account.policiesCount).toBe(11);
    expect(account.policies.map((p: { id: string }) => p.id)).toEqual(made.slice(1).reverse().map((p) => p.id));
    expect(account.policies[0]).toEqual({ id: made[10].id, policyNo: made[10].policyNo, policyType: 'HOME', state: 'PROCESSING',
      productName: expect.any(String), currency: 'GHS', premium: made[10].premium, startDate: plusDays(1), endDate: plusDays(365) });
  });
});
