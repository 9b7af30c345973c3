import { Decimal } from 'decimal.js';
import type { EventActor } from '../../platform/events.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { emit, type EventServices } from '../events/catalogue.js';
import { cancelActiveMandate } from './direct-debits.js';
import { invoiceFigures, paymentSums } from './figures.js';
import { lockInvoice, movePayment, PAYMENT_MOVED } from './payments.js';

/** What closing a policy writes in every record it leaves: its history, its mandates, its rejected payments. */
export const CLOSED_NOTE = 'Policy closed';

/**
 * The invoices billing this policy and no other, in id order (the order they are locked in). A
 * cart checkout's invoice that bills other policies too stays open: their premiums are still owed.
 */
export async function invoicesOfPolicyAlone(scope: TenantScope, policyId: string): Promise<string[]> {
  const billing = (await scope.selectFrom('invoice_items').select('invoice_id').where('policy_id', '=', policyId).execute()).map((i) => i.invoice_id);
  if (billing.length === 0) return [];
  const shared = new Set((await scope.selectFrom('invoice_items').select('invoice_id').where('invoice_id', 'in', billing)
    .where('policy_id', '<>', policyId).execute()).map((i) => i.invoice_id));
  return [...new Set(billing)].filter((invoiceId) => !shared.has(invoiceId)).sort();
}

/**
 * Locks the invoices billing this policy alone, before anything else of a closure is locked: the
 * order payments take their locks in (invoice, then policy), so a closure and a payment on the
 * same invoice queue instead of deadlocking. Answers their ids.
 */
export async function lockInvoicesOfPolicyAlone(scope: TransactionScope, policyId: string): Promise<string[]> {
  const ids = await invoicesOfPolicyAlone(scope, policyId);
  for (const id of ids) await lockInvoice(scope, id);
  return ids;
}

/**
 * What a policy's closure stops on the money side, its invoices already locked: its ACTIVE mandates
 * are cancelled; on each invoice billing it alone, payments still PENDING_APPROVAL are rejected
 * and, unless confirmed money covers it, the invoice is voided (nothing left to pay; the unpaid
 * remainder is written off). Each is recorded as the closure's approver's (`directDebit.cancelled`,
 * `transaction.rejected`, `invoice.closed`). Confirmed money stays as it is: refunds are the
 * company's business outside the API. Answers what it did, in words for the client's notice.
 */
export async function stopBillingClosedPolicy(services: EventServices, scope: TransactionScope, closed: { policyId: string; policyNo: string; invoiceIds: string[] },
  actor: EventActor, at: Date): Promise<string[]> {
  const mandates = await scope.selectFrom('direct_debits').select('id').where('policy_id', '=', closed.policyId).where('status', '=', 'ACTIVE')
    .orderBy('id').forUpdate().execute();
  for (const mandate of mandates) await cancelActiveMandate(services, scope, mandate.id, CLOSED_NOTE, actor, at);

  const voided: string[] = [];
  let rejected = 0;
  for (const invoiceId of closed.invoiceIds) {
    const invoice = (await lockInvoice(scope, invoiceId))!;
    const pending = await scope.selectFrom('transactions').select(PAYMENT_MOVED)
      .where('invoice_id', '=', invoice.id).where('status', '=', 'PENDING_APPROVAL').orderBy('created_at').orderBy('id').execute();
    // What it showed before the closure (money awaiting approval counted as paid), for the event's `previous`.
    const before = invoiceFigures(invoice.amount, invoice.exchange_rate, (await paymentSums(scope, [invoice.id])).get(invoice.id)!, invoice);
    for (const payment of pending) {
      await movePayment(services, scope, payment, { to: 'REJECTED', actor, at, notes: CLOSED_NOTE });
    }
    rejected += pending.length;
    const figures = pending.length === 0 ? before
      : invoiceFigures(invoice.amount, invoice.exchange_rate, (await paymentSums(scope, [invoice.id])).get(invoice.id)!, invoice);
    if (figures.isClosed) continue;
    await scope.updateTable('invoices').set({ voided_at: at, void_reason: `Policy ${closed.policyNo} closed`, updated_at: at })
      .where('id', '=', invoice.id).execute();
    // Its status (by confirmed money) stays; what changed is that it is closed with nothing left to pay.
    await emit(services, scope, actor, { type: 'invoice.closed', object: { type: 'invoice', id: invoice.id }, data: {} }, at,
      { previous: { isClosed: false, amountUnpaid: before.amountUnpaid } });
    voided.push(`invoice ${invoice.invoice_no} is closed and the ${invoice.currency} ${new Decimal(figures.amountUnpaid).toFixed(2)} unpaid on it is written off`);
  }
  return [
    ...(mandates.length > 0 ? ['its direct debit is cancelled'] : []),
    ...(rejected > 0 ? [`${rejected} payment${rejected === 1 ? '' : 's'} awaiting approval ${rejected === 1 ? 'is' : 'are'} rejected`] : []),
    ...voided,
  ];
}
