import type { components } from '../../../generated/api.js';
import type { HandlerContext, StaffActor } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { clientInReach } from '../staff/reach.js';
import { assertTransition } from '../states/machine.js';
import { TRANSACTION_STATES } from '../states/transaction.js';
import { settlePayment } from './payments.js';
import { assertNotCredentialSetter, assertNotOwnPayment } from './payment-rules.js';
import { toTransactions, transactionColumns, transactionQuery, type Transaction } from './transaction-view.js';

export type TransactionApproval = components['schemas']['TransactionApproval'];
export type TransactionRejection = components['schemas']['TransactionRejection'];

/** The payments of the clients within a staff member's reach; a payment out of reach is absent, as another tenant's. */
export const paymentsInReach = (scope: TenantScope, actor: StaffActor) =>
  transactionQuery(scope).where(clientInReach('transactions.client_id', actor));

/** One payment of a client within the caller's reach as the API answers it, or 404. */
export async function loadStaffTransaction(scope: TenantScope, actor: StaffActor, id: string, now: Date): Promise<Transaction> {
  const row = await paymentsInReach(scope, actor).select(transactionColumns).where('transactions.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Transaction');
  return (await toTransactions(scope, [row], now))[0];
}

/** What a supervisor decides about a payment waiting for staff: it was received, or it was not (and why). */
export type PaymentDecision = { to: 'APPROVED'; notes: string | null } | { to: 'REJECTED'; notes: string };

/**
 * A supervisor approves or rejects a payment of a client within their reach that waits for staff
 * (cash, cheque, bank transfer in PENDING_APPROVAL), through the one path that settles payments
 * (`settlePayment`: the machine's edge, the invoice's lock, the receipt, the paid policies, the
 * client's notification), then records who decided, when and why, all in one DB transaction.
 * The staff member who recorded the payment may not approve it (four eyes: 403 OWN_PAYMENT), nor
 * the one who opened the client's account or last set its credentials (403 CREDENTIALS_SET_BY_APPROVER).
 * Any other state, a provider's payment or one already settled (a racing decision that lost
 * included), is the machine's 409.
 */
export async function decidePayment(ctx: HandlerContext, actor: StaffActor, id: string, decision: PaymentDecision): Promise<Transaction> {
  const now = ctx.clock.now();
  await ctx.scope.transaction(async (scope) => {
    const payment = await paymentsInReach(scope, actor)
      .select(['transactions.id', 'transactions.transaction_no', 'transactions.status', 'transactions.created_by_staff_id', 'transactions.client_id'])
      .where('transactions.id', '=', id).executeTakeFirst();
    if (!payment) throw notFound('Transaction');
    assertNotOwnPayment(payment, decision.to, actor.staffId);
    const client = await scope.selectFrom('clients').select(['created_by_staff_id', 'credentials_set_by_staff_id'])
      .where('id', '=', payment.client_id).executeTakeFirstOrThrow();
    assertNotCredentialSetter(payment, client, decision.to, actor.staffId);
    const what = `Transaction ${payment.transaction_no}`;
    // Refused before any lock is taken when the state read already forbids it.
    assertTransition(TRANSACTION_STATES, what, payment.status, decision.to, 'staff');
    const moved = await settlePayment(ctx, scope, {
      transactionId: payment.id, to: decision.to, actor: { by: 'staff', id: actor.staffId }, at: now, notes: decision.notes, reviewedBy: actor.staffId,
    });
    if (!moved) {
      // Another decision won meanwhile (under the invoice's lock the payment was already there): the machine's 409.
      const current = await scope.selectFrom('transactions').select('status').where('id', '=', payment.id).executeTakeFirstOrThrow();
      assertTransition(TRANSACTION_STATES, what, current.status, decision.to, 'staff');
    }
  });
  return loadStaffTransaction(ctx.scope, actor, id, now);
}
