import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { HandlerContext, Services, StaffActor } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { checkOwnDocuments } from '../documents/owned.js';
import { clientInReach } from '../staff/reach.js';
import type { TransactionActor } from '../states/transaction.js';
import { leftToPay, lockInvoice, writePayment } from './payments.js';
import { paymentAmount } from './payment-rules.js';
import type { Transaction } from './transaction-view.js';
import { todayOf } from '../../platform/clock.js';
import { notifyClient } from '../accounts/notify.js';

export type TransactionCreate = components['schemas']['TransactionCreate'];

const CHEQUE_FIELDS = ['chequeDate', 'nameOnCheque', 'chequeNo', 'chequeType'] as const;

/**
 * Pays one of the client's invoices, for the client or for whoever records it (`actor`). The
 * invoice row is locked for the whole write, so concurrent payments see each other: "the rest"
 * (amount 0 or none) is taken once, never twice. ONLINE payments get a hosted checkout,
 * MOBILE_MONEY a prompt; the rest wait for staff. (A request with an Idempotency-Key runs once per
 * key: the routes run the whole call, this transaction joined, through server/platform/idempotency.ts.)
 */
export async function payInvoice(ctx: HandlerContext, clientId: string, body: TransactionCreate, actor: TransactionActor): Promise<Transaction> {
  const now = ctx.clock.now();
  checkPaymentFields(body, todayOf(now).date);
  return ctx.scope.transaction((scope) => recordPayment(ctx, scope, clientId, body, actor, now));
}

/**
 * Staff take a payment of an invoice of a client within their reach (money received at the branch,
 * a mobile money prompt, a checkout link), exactly as the client would pay it, recorded as theirs.
 * An invoice out of reach is 404, as an unknown one.
 */
export async function payInvoiceForClient(ctx: HandlerContext, actor: StaffActor, body: TransactionCreate): Promise<Transaction> {
  const invoice = await ctx.scope.selectFrom('invoices').select('client_id')
    .where('id', '=', body.invoiceId).where(clientInReach('invoices.client_id', actor)).executeTakeFirst();
  if (!invoice) throw notFound('Invoice');
  return payInvoice(ctx, invoice.client_id, body, { by: 'staff', id: actor.staffId });
}

/** What the schema cannot say: cheque and wallet fields belong to their method only; money is not paid in the future. */
function checkPaymentFields(body: TransactionCreate, today: string) {
  if (body.paymentMethod !== 'CHEQUE') {
    const stray = CHEQUE_FIELDS.find((field) => body[field] !== undefined);
    if (stray) throw badRequest(`body.${stray} is only allowed when body.paymentMethod is CHEQUE`);
  }
  if (body.paymentMethod !== 'MOBILE_MONEY' && body.mobileNumber !== undefined) {
    throw badRequest('body.mobileNumber is only allowed when body.paymentMethod is MOBILE_MONEY');
  }
  if (body.dateReceived !== undefined && body.dateReceived > today) throw badRequest(`body.dateReceived must not be in the future (today is ${today})`);
}

/** The payment's write: the invoice locked, the money checked, the client told. */
async function recordPayment(services: Pick<Services, 'payments' | 'notifier' | 'reactions' | 'eventSnapshots'>, scope: TransactionScope, clientId: string, body: TransactionCreate,
  actor: TransactionActor, now: Date): Promise<Transaction> {
  const invoice = await lockInvoice(scope, body.invoiceId);
  if (!invoice || invoice.client_id !== clientId) throw notFound('Invoice');
  if (body.currency !== undefined && body.currency !== invoice.currency) {
    throw badRequest(`body.currency must be ${invoice.currency}, the currency of invoice ${invoice.invoice_no}`);
  }
  // The rate is the invoice's: money is converted as it was billed, never at a payer's rate.
  const exchangeRate = new Decimal(invoice.exchange_rate);
  if (body.exchangeRate !== undefined && !exchangeRate.equals(body.exchangeRate)) {
    throw badRequest(`body.exchangeRate must be ${exchangeRate.toString()}, the rate of invoice ${invoice.invoice_no} (leave it out)`);
  }
  const remaining = await leftToPay(services, scope, invoice, now);
  const amount = paymentAmount(invoice, remaining, body.amount);
  const files = body.files ?? [];
  await checkOwnDocuments(scope, clientId, files, 'body.files');

  const started = await writePayment(services, scope, {
    invoice, clientId, method: body.paymentMethod, amount, exchangeRate, dateReceived: body.dateReceived ?? todayOf(now).date,
    details: {
      transaction_type: body.transactionType ?? null,
      payee: body.payee ?? null,
      payment_institution: body.paymentInstitution ?? null,
      description: body.description ?? null,
      cheque_date: body.chequeDate ?? null,
      name_on_cheque: body.nameOnCheque ?? null,
      cheque_no: body.chequeNo ?? null,
      cheque_type: body.chequeType ?? null,
      document_ids: JSON.stringify(files),
      mobile_number: body.mobileNumber ?? null,
    },
    actor,
    at: now,
  });

  // The sandbox's phone is a page: the client is told where it is.
  const what = body.paymentMethod === 'ONLINE' ? 'Complete the checkout to pay it.'
    : body.paymentMethod === 'MOBILE_MONEY' ? `Approve the prompt on ${body.mobileNumber} to pay it.${started.promptUrl ? ` (Sandbox: the prompt is at ${started.promptUrl}.)` : ''}`
      : 'It will count once approved.';
  await notifyClient(services, scope, clientId, {
    title: `Payment ${started.transactionNo} started`,
    body: `Payment of ${invoice.currency} ${amount.toFixed(2)} for invoice ${invoice.invoice_no} by ${body.paymentMethod.replace('_', ' ').toLowerCase()}. ${what}`,
    entity: { name: 'transaction', id: started.id },
  });
  // The answer is the payment as its `transaction.created` carries it (read at `now`, in this
  // transaction: the view its GET answers), not read again.
  return started.snapshot as Transaction;
}
