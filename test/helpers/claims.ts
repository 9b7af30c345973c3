import { settlePayment } from '../../server/domain/money/payments.js';
import { TenantScope } from '../../server/platform/tenancy.js';
import type { Harness } from './harness.js';

/** A day relative to the server's clock, `YYYY-MM-DD`. */
export const serverDay = (h: Pick<Harness, 'clock'>, offset = 0) => new Date(h.clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);

export interface TestPolicy { id: string; policyNo: string; assetIds: string[]; startDate: string; endDate: string }

/** A home policy of the client's with two houses, starting today, invoiced and not paid. */
export async function homePolicy(h: Harness, token: string, productId: string) {
  const res = await h.call({ method: 'POST', url: '/api/v1/client/policies', token, payload: {
    policyType: 'HOME', currency: 'GHS', startDate: serverDay(h, 0), endDate: serverDay(h, 364), productId, businessType: 'NEW_BUSINESS',
    assets: [
      { sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' },
      { sumInsured: 250000, usage: 'PRIVATE', location: 'Plot 7, Prempeh II Street, Adum, Kumasi' },
    ],
  } });
  expect(res.statusCode).toBe(201);
  return res.json().data;
}

/** Moves a policy's term `days` back, as if that many days had passed since it started. */
export async function backdate(h: Harness, policy: { id: string; policyNo: string; assets: Array<{ id: string }> }, days: number): Promise<TestPolicy> {
  const [startDate, endDate] = [serverDay(h, -days), serverDay(h, 364 - days)];
  await h.db.updateTable('policies').set({ start_date: startDate, end_date: endDate }).where('id', '=', policy.id).execute();
  return { id: policy.id, policyNo: policy.policyNo, assetIds: policy.assets.map((a) => a.id), startDate, endDate };
}

/**
 * A home policy of the client's with two houses, paid in full (which makes it ACTIVE), its term
 * then moved 30 days back as if a month had passed, so losses can fall inside cover.
 */
export async function activePolicy(h: Harness, token: string, productId: string): Promise<TestPolicy> {
  const policy = await homePolicy(h, token, productId);
  const paid = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token,
    payload: { invoiceId: policy.invoice.id, paymentMethod: 'CASH', amount: policy.invoice.amount } });
  expect(paid.statusCode).toBe(201);
  await new TenantScope(h.db, h.tenantId).transaction((scope) => settlePayment(h.app.services, scope, { transactionId: paid.json().data.id, to: 'APPROVED', actor: { by: 'staff', id: null }, at: h.clock.now() }));
  const state = await h.db.selectFrom('policies').select('state').where('id', '=', policy.id).executeTakeFirstOrThrow();
  expect(state.state).toBe('ACTIVE');
  return backdate(h, policy, 30);
}

/** A standard claim's body on the policy: a loss two days ago to its first house. */
export const standardClaim = (h: Pick<Harness, 'clock'>, policy: TestPolicy, extra: Record<string, unknown> = {}) => ({
  policyId: policy.id, dateOfLoss: serverDay(h, -2), dateOfNotification: serverDay(h, -1), incidentLocation: 'House No. 14, Nii Ashie Street, East Legon',
  description: 'A burst pipe flooded the ground floor.', lossCategory: 'MEDICALS', estimatedLossAmount: 4850.75, assets: [policy.assetIds[0]], ...extra,
});
