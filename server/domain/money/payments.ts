import { MESSAGE_TEMPLATES } from '../messages/templates.js';
import { Decimal } from 'decimal.js';
import type { Insertable, Selectable } from 'kysely';
import type { Services } from '../../platform/context.js';
import type { InvoicesTable, PaymentMethod, TransactionsTable, TransactionStatus } from '../../platform/db/schema.js';
import { issueReceipt } from './receipts/number.js';
import { conflict } from '../../platform/errors.js';
import { takeNumber, TAKEN_NUMBER } from '../../platform/numbering.js';
import { sql } from 'kysely';
import { CONFIRMED, INITIAL_STATE_NOTES, initialTransactionStatus, moveTransaction, type TransactionActor } from '../states/transaction.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { emit, type EventServices } from '../events/catalogue.js';
import { toCents } from './billing.js';
import { completeMandatesOfPaidInvoice } from './direct-debits.js';
import { invoiceFigures, invoicePaymentTotals, invoiceStatus, paymentSums, remainingToPay, sumsOfTotals } from './figures.js';
import { notifyClient } from '../accounts/notify.js';

/** An online checkout not finished in this time expires, and its amount is free again. */
export const CHECKOUT_TTL_MS = 30 * 60 * 1000;

/** When a checkout opened at `createdAt` expires: open until then, expired after. */
export const checkoutExpiresAt = (createdAt: Date) => new Date(createdAt.getTime() + CHECKOUT_TTL_MS);

/** Whether a checkout opened at `createdAt` has expired unfinished at `now`. */
export const checkoutExpired = (createdAt: Date, now: Date) => now.getTime() > checkoutExpiresAt(createdAt).getTime();

/** Locks an invoice row until the scope's transaction ends: every payment write on it goes one at a time. */
export async function lockInvoice(scope: TransactionScope, invoiceId: string) {
  return scope.selectFrom('invoices').selectAll().where('id', '=', invoiceId).forUpdate().executeTakeFirst();
}

export type InvoiceRow = Selectable<InvoicesTable>;

/** The seed's optional payment fields, as stored. */
type PaymentDetails = Partial<Pick<Insertable<TransactionsTable>, 'transaction_type' | 'payee' | 'payment_institution' | 'description'
  | 'cheque_date' | 'name_on_cheque' | 'cheque_no' | 'cheque_type' | 'document_ids' | 'mobile_number' | 'direct_debit_id'>>;

export interface NewPayment {
  /** The invoice paid, locked by the caller (`lockInvoice`). */
  invoice: InvoiceRow;
  clientId: string;
  method: PaymentMethod;
  amount: Decimal;
  exchangeRate: Decimal;
  dateReceived: string;
  details?: PaymentDetails;
  actor: TransactionActor;
  at: Date;
}

/**
 * Writes a payment of a locked invoice: its number, its first state
 * (by method), and for ONLINE and MOBILE_MONEY the provider's checkout or wallet prompt, asked for
 * once the payment's row is written (its id is the provider's reference); then `transaction.created`
 * (every payment is written here: a client's, staff's for a client, a direct debit's).
 */
export async function writePayment(services: Pick<Services, 'payments' | 'reactions' | 'eventSnapshots'>, scope: TransactionScope, payment: NewPayment) {
  const { invoice, method, amount, exchangeRate, at } = payment;
  const status = initialTransactionStatus(method);
  // One statement: its number, the payment and its first state (a chain of data-modifying CTEs).
  const row = await scope.db
    .with('taken_number', takeNumber(scope, 'TRX'))
    .with('payment', (db) => db.insertInto('transactions').values({
      tenant_id: scope.tenantId,
      transaction_no: TAKEN_NUMBER,
      invoice_id: invoice.id,
      policy_id: invoice.policy_id,
      client_id: payment.clientId,
      payment_method: method,
      status,
      amount: amount.toFixed(2),
      currency: invoice.currency,
      exchange_rate: exchangeRate.toString(),
      converted_amount: toCents(amount.mul(exchangeRate)).toFixed(2),
      date_received: payment.dateReceived,
      created_by_staff_id: payment.actor.by === 'staff' ? payment.actor.id : null,
      ...payment.details,
      created_at: at,
      updated_at: at,
    }).returning(['id', 'transaction_no', 'tenant_id', 'created_at']))
    .with('first_state', (db) => db.insertInto('transaction_state_changes')
      .columns(['tenant_id', 'transaction_id', 'from_state', 'to_state', 'actor_kind', 'actor_id', 'notes', 'created_at'])
      .expression((eb) => eb.selectFrom('payment').select([
        'payment.tenant_id', 'payment.id as transaction_id', sql<null>`null::text`.as('from_state'), sql<string>`${status}::text`.as('to_state'),
        sql<string>`${payment.actor.by}::text`.as('actor_kind'), sql<string | null>`${payment.actor.id}::text`.as('actor_id'),
        sql<string>`${INITIAL_STATE_NOTES}::text`.as('notes'), 'payment.created_at',
      ])))
    .selectFrom('payment').select(['id', 'transaction_no']).executeTakeFirstOrThrow();
  const transactionNo = row.transaction_no;
  const start = { transactionId: row.id, transactionNo, amount: amount.toFixed(2), currency: invoice.currency };
  // A sandbox provider's "phone" is a page: where it is, so the client can be told.
  let promptUrl: string | undefined;
  if (method === 'ONLINE') {
    const checkout = await services.payments.startCheckout(start);
    await scope.updateTable('transactions').set({ provider: services.payments.name, provider_reference: checkout.reference, checkout_url: checkout.checkoutUrl })
      .where('id', '=', row.id).execute();
  } else if (method === 'MOBILE_MONEY') {
    const prompt = await services.payments.requestMobileMoney({ ...start, mobileNumber: payment.details!.mobile_number! });
    // The prompt's page, when the provider has one (the sandbox's phone), is where the payer acts, as a checkout's is.
    await scope.updateTable('transactions').set({ provider: services.payments.name, provider_reference: prompt.reference, checkout_url: prompt.promptUrl ?? null })
      .where('id', '=', row.id).execute();
    promptUrl = prompt.promptUrl;
  }
  // What a payer's create answers (pay-invoice.ts).
  const object = { type: 'transaction', id: row.id } as const;
  const snapshot = await services.eventSnapshots(scope, object, at);
  await emit(services, scope, payment.actor, { type: 'transaction.created', object, data: {} }, at);
  return { id: row.id, transactionNo, status, promptUrl, snapshot };
}

/** Cancels the invoice's online checkouts left unfinished past their time (the invoice is locked). */
export async function expireCheckouts(services: EventServices, scope: TransactionScope, invoiceId: string, now: Date) {
  const stale = await scope.selectFrom('transactions').select(PAYMENT_MOVED)
    .where('invoice_id', '=', invoiceId).where('status', '=', 'PENDING_PAYMENT')
    .where('created_at', '<', checkoutCutoff(now)).execute();
  await cancelCheckouts(services, scope, stale, now);
}

/** Checkouts opened before this are expired at `now`. */
const checkoutCutoff = (now: Date) => new Date(now.getTime() - CHECKOUT_TTL_MS);

async function cancelCheckouts(services: EventServices, scope: TransactionScope, stale: MovedPayment[], now: Date) {
  for (const row of stale) {
    await movePayment(services, scope, row, { to: 'CANCELLED', actor: { by: 'system', id: null }, at: now, notes: 'Checkout expired unfinished' });
  }
}

/**
 * What a new payment or mandate may still claim on a locked invoice, once its stale checkouts have
 * expired; 409 when nothing is left (paid or being paid) or the invoice is closed unpaid (voided).
 */
export async function leftToPay(services: EventServices, scope: TransactionScope, invoice: InvoiceRow, now: Date): Promise<Decimal> {
  if (invoice.voided_at !== null) {
    throw conflict(`Invoice ${invoice.invoice_no} is closed (${invoice.void_reason}); it takes no more payments`, 'INVOICE_CLOSED');
  }
  // One query, under the invoice's lock: its stale checkouts and its payment totals. The totals
  // stand unless a checkout expires (rarely): they are read again after that.
  const read = await scope.selectFrom('invoices').where('invoices.id', '=', invoice.id)
    .select(invoicePaymentTotals.as('totals'))
    .select((eb) => eb.selectFrom('transactions as t')
      .select(sql<MovedPayment[]>`coalesce(json_agg(json_build_object('id', t.id, 'transaction_no', t.transaction_no, 'status', t.status,
        'direct_debit_id', t.direct_debit_id) order by t.created_at, t.id), '[]'::json)`.as('stale'))
      .whereRef('t.invoice_id', '=', 'invoices.id').whereRef('t.tenant_id', '=', 'invoices.tenant_id')
      .where('t.status', '=', 'PENDING_PAYMENT').where('t.created_at', '<', checkoutCutoff(now))
      .as('stale'))
    .executeTakeFirstOrThrow();
  // (One row always: an aggregate over no payments is its empty array.)
  const stale = read.stale ?? [];
  let sums = sumsOfTotals(read.totals);
  if (stale.length > 0) {
    await cancelCheckouts(services, scope, stale, now);
    sums = (await paymentSums(scope, [invoice.id])).get(invoice.id)!;
  }
  const remaining = remainingToPay(invoice.amount, sums);
  if (remaining.lessThanOrEqualTo(0)) {
    throw conflict(`Invoice ${invoice.invoice_no} has nothing left to pay (${new Decimal(invoice.amount).toFixed(2)} ${invoice.currency} paid or being paid)`,
      'INVOICE_SETTLED');
  }
  return remaining;
}

/** A payment's outcome: which payment, the state it moves to, who decided, when, and why (a staff member's notes, a provider's event). */
export interface PaymentOutcome {
  transactionId: string;
  to: TransactionStatus;
  actor: TransactionActor;
  at: Date;
  notes?: string | null;
  /** A staff member's decision: they are recorded as its reviewer, with their notes, before anyone hears of it. */
  reviewedBy?: string;
}

/** What moving a payment reads of it (`movePayment`). */
export const PAYMENT_MOVED = ['id', 'transaction_no', 'status', 'direct_debit_id'] as const;
type MovedPayment = Pick<Selectable<TransactionsTable>, (typeof PAYMENT_MOVED)[number]>;

/**
 * Moves a payment to its outcome (every state past the first is one: confirmed, rejected,
 * failed, cancelled) as the machine allows (`moveTransaction`), records its reviewer when staff
 * decided, then `transaction.approved`, `.rejected` or `.failed` with its status before, and for a
 * direct debit's payment `directDebit.collected` or `.failed` on its mandate. Every payment's
 * outcome, wherever it is decided (staff, the provider, an expired checkout, a closed policy),
 * goes through here; its invoice is locked by the caller.
 */
export async function movePayment(services: EventServices, scope: TransactionScope, payment: MovedPayment,
  { to, actor, at, notes = null, reviewedBy }: Omit<PaymentOutcome, 'transactionId'>): Promise<void> {
  await moveTransaction(scope, { id: payment.id, transactionNo: payment.transaction_no, status: payment.status }, to, actor, at, notes);
  if (reviewedBy) {
    await scope.updateTable('transactions').set({ reviewed_by_staff_id: reviewedBy, reviewed_at: at, review_notes: notes }).where('id', '=', payment.id).execute();
  }
  const confirmed = CONFIRMED.includes(to);
  const outcome = confirmed ? 'transaction.approved' : to === 'REJECTED' ? 'transaction.rejected' : 'transaction.failed';
  await emit(services, scope, actor, { type: outcome, object: { type: 'transaction', id: payment.id }, data: {} }, at, { previous: { status: payment.status } });
  if (payment.direct_debit_id !== null) {
    await emit(services, scope, actor, { type: confirmed ? 'directDebit.collected' : 'directDebit.failed',
      object: { type: 'directDebit', id: payment.direct_debit_id }, data: { transactionId: payment.id } }, at);
  }
}

/**
 * Moves a payment to its outcome (approved, verified, rejected, failed...) under its invoice's
 * lock; confirmed money gets its receipt number there and then (the RCT series follows the order
 * money was confirmed in); when confirmed money now covers the invoice, each policy it bills
 * moves on (`invoice.paid`), and the client hears of it (of a staff member's rejection, with their `notes` as the
 * reason). Returns false when the
 * payment had already left `from` (a repeated or late event): nothing is changed then.
 */
export async function settlePayment(services: Pick<Services, 'notifier' | 'reactions' | 'eventSnapshots'>, scope: TransactionScope,
  { transactionId, to, actor, at, notes = null, reviewedBy }: PaymentOutcome): Promise<boolean> {
  const found = await scope.selectFrom('transactions').select('invoice_id').where('id', '=', transactionId).executeTakeFirst();
  if (!found) return false;
  const invoice = (await lockInvoice(scope, found.invoice_id))!;
  const row = await scope.selectFrom('transactions').selectAll().where('id', '=', transactionId).executeTakeFirstOrThrow();
  if (row.status === to) return false;
  await movePayment(services, scope, row, { to, actor, at, notes, reviewedBy });

  const sums = (await paymentSums(scope, [invoice.id])).get(invoice.id)!;
  const figures = invoiceFigures(invoice.amount, invoice.exchange_rate, sums);
  const amount = `${row.currency} ${new Decimal(row.amount).toFixed(2)}`;
  if (CONFIRMED.includes(to)) {
    const receipt = (await issueReceipt(scope, row.id, at))!;
    await notifyClient(services, scope, row.client_id, {
      title: `Payment ${row.transaction_no} received`,
      body: `We received ${amount} for invoice ${invoice.invoice_no} (receipt ${receipt.receiptNo}). ${figures.isClosed ? 'The invoice is paid in full.'
        : `${invoice.currency} ${new Decimal(figures.amountUnpaid).toFixed(2)} remains to pay.`}`,
      entity: { name: 'transaction', id: row.id },
      message: { template: MESSAGE_TEMPLATES.paymentReceived },
    });
    if (figures.isClosed) {
      // Its status before: what confirmed money made of it without this payment.
      const confirmedBefore = CONFIRMED.includes(row.status) ? sums.confirmed : sums.confirmed.minus(row.amount);
      await emit(services, scope, actor, { type: 'invoice.paid', object: { type: 'invoice', id: invoice.id }, data: { invoiceNo: invoice.invoice_no } }, at,
        { previous: { status: invoiceStatus(invoice.amount, confirmedBefore) } });
      await completeMandatesOfPaidInvoice(scope, invoice, at);
    }
  } else {
    await notifyClient(services, scope, row.client_id, {
      title: `Payment ${row.transaction_no} ${to.toLowerCase()}`,
      body: `Your payment of ${amount} for invoice ${invoice.invoice_no} was not received (${to.toLowerCase()}).${
        actor.by === 'staff' && notes ? ` Reason: ${notes}` : ''}`,
      entity: { name: 'transaction', id: row.id },
    });
  }
  return true;
}
