import { Decimal } from 'decimal.js';
import { badRequest, conflict, notFound } from '../../server/platform/errors.js';
import { idempotent } from '../../server/platform/idempotency.js';
import { toCents } from '../../server/domain/money/billing.js';
import { paymentSums, remainingToPay } from '../../server/domain/money/figures.js';
import { expireCheckouts, lockInvoice, writePayment } from '../../server/domain/money/payments.js';
import { notifyClient } from '../../server/domain/clients/notifications.js';
import { clientId } from '../../server/platform/actor.js';
import { checkOwnDocuments } from '../../server/domain/documents/owned.js';
import { todayOf } from '../../server/domain/policies/rules.js';
import type { Handler } from '../types.js';
import { loadTransaction } from '../../server/domain/money/transaction-view.js';

const CHEQUE_FIELDS = ['chequeDate', 'nameOnCheque', 'chequeNo', 'chequeType'] as const;

/**
 * Pays one of the client's invoices. The invoice row is locked for the whole write, so
 * concurrent payments see each other: "the rest" (amount 0 or none) is taken once, never twice.
 * ONLINE payments get a hosted checkout, MOBILE_MONEY a prompt; the rest wait for staff.
 */
export const createTransaction: Handler<'createTransaction'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const body = req.body;
  const now = ctx.clock.now();
  const today = todayOf(now).date;
  // What the schema cannot say: cheque and wallet fields belong to their method only.
  if (body.paymentMethod !== 'CHEQUE') {
    const stray = CHEQUE_FIELDS.find((field) => body[field] !== undefined);
    if (stray) throw badRequest(`body.${stray} is only allowed when body.paymentMethod is CHEQUE`);
  }
  if (body.paymentMethod !== 'MOBILE_MONEY' && body.mobileNumber !== undefined) {
    throw badRequest('body.mobileNumber is only allowed when body.paymentMethod is MOBILE_MONEY');
  }
  if (body.dateReceived !== undefined && body.dateReceived > today) throw badRequest(`body.dateReceived must not be in the future (today is ${today})`);

  const key = req.headers['idempotency-key'];
  return idempotent(ctx, { key: typeof key === 'string' ? key : undefined, operation: 'createTransaction', clientId: owner, body }, async (scope) => {
    const invoice = await lockInvoice(scope, body.invoiceId);
    if (!invoice || invoice.client_id !== owner) throw notFound('Invoice');
    if (body.currency !== undefined && body.currency !== invoice.currency) {
      throw badRequest(`body.currency must be ${invoice.currency}, the currency of invoice ${invoice.invoice_no}`);
    }
    await expireCheckouts(scope, invoice.id, now);
    const remaining = remainingToPay(invoice.amount, (await paymentSums(scope, [invoice.id])).get(invoice.id)!);
    if (remaining.lessThanOrEqualTo(0)) {
      throw conflict(`Invoice ${invoice.invoice_no} has nothing left to pay (${new Decimal(invoice.amount).toFixed(2)} ${invoice.currency} paid or being paid)`,
        'INVOICE_SETTLED');
    }
    const amount = body.amount ? toCents(body.amount) : remaining;
    const exchangeRate = new Decimal(body.exchangeRate ?? invoice.exchange_rate);
    const files = body.files ?? [];
    await checkOwnDocuments(scope, owner, files, 'body.files');

    const tx = await writePayment(ctx, scope, {
      invoice, clientId: owner, method: body.paymentMethod, amount, exchangeRate, dateReceived: body.dateReceived ?? today,
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
      actor: { by: 'client', id: owner },
      at: now,
    });

    // The sandbox's phone is a page: the client is told where it is.
    const what = body.paymentMethod === 'ONLINE' ? 'Complete the checkout to pay it.'
      : body.paymentMethod === 'MOBILE_MONEY' ? `Approve the prompt on ${body.mobileNumber} to pay it.${tx.promptUrl ? ` (Sandbox: the prompt is at ${tx.promptUrl}.)` : ''}`
        : 'It will count once approved.';
    await notifyClient(ctx, scope, owner, {
      title: `Payment ${tx.transactionNo} started`,
      body: `Payment of ${invoice.currency} ${amount.toFixed(2)} for invoice ${invoice.invoice_no} by ${body.paymentMethod.replace('_', ' ').toLowerCase()}. ${what}`,
      entity: { name: 'transaction', id: tx.id },
    });
    return { data: await loadTransaction(scope, tx.id, owner) };
  });
};
