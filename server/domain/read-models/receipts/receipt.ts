import type { Readable } from 'node:stream';
import { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { HandlerContext, StaffActor } from '../../../platform/context.js';
import { paymentsInReach } from '../../money/staff-payments.js';
import { conflict, notFound } from '../../../platform/errors.js';
import type { TenantScope } from '../../../platform/tenancy.js';
import { clientFullName } from '../../clients/account.js';
import { POLICY_TYPES } from '../../policies/types-catalogue.js';
import { CONFIRMED } from '../../states/transaction.js';
import { transactionColumns, clientTransactions } from '../../money/transaction-view.js';
import { issueReceipt, type ReceiptNumber } from '../../money/receipts/number.js';
import type { ReceiptData } from './render.js';

/** A receipt as it is handed out: its number (the file's name) and the PDF, streamed as it is written. */
export interface Receipt { receiptNo: string; pdf: Readable }

/**
 * The official receipt of one of the client's payments. Only confirmed money has a receipt (409
 * otherwise); anyone else's payment is a 404, like an unknown id. The receipt number was given
 * when the payment was confirmed (settlePayment); a payment confirmed before receipts were
 * numbered gets its number here, once.
 */
export async function paymentReceipt(ctx: Pick<HandlerContext, 'db' | 'scope' | 'tenant' | 'clock'>, clientId: string,
  transactionId: string): Promise<Receipt> {
  const { row, receipt } = await confirmedPayment(ctx.scope, clientId, transactionId, ctx.clock.now());
  const data = await receiptData(ctx, clientId, row, receipt);
  // pdfkit and to-words (some 40 MB) are loaded by the first receipt, not by every server.
  const { renderReceipt } = await import('./render.js');
  return { receiptNo: receipt.receiptNo, pdf: renderReceipt(data) };
}

/**
 * The receipt of a payment of a client within a staff member's reach (404 otherwise): the very
 * receipt the client downloads, same number and issue date, for a cashier to print.
 */
export async function staffPaymentReceipt(ctx: Pick<HandlerContext, 'db' | 'scope' | 'tenant' | 'clock'>, actor: StaffActor,
  transactionId: string): Promise<Receipt> {
  const payment = await paymentsInReach(ctx.scope, actor).select('transactions.client_id').where('transactions.id', '=', transactionId).executeTakeFirst();
  if (!payment) throw notFound('Transaction');
  return paymentReceipt(ctx, payment.client_id, transactionId);
}

const receiptRow = (scope: TenantScope, clientId: string) =>
  clientTransactions(scope, clientId).select([...transactionColumns, 'transactions.settled_at']);
type ReceiptRow = Awaited<ReturnType<ReturnType<typeof receiptRow>['executeTakeFirstOrThrow']>>;

/** The client's payment, confirmed, with its receipt number (given now if it had none). */
async function confirmedPayment(scope: TenantScope, clientId: string, transactionId: string, now: Date) {
  const row = await receiptRow(scope, clientId).where('transactions.id', '=', transactionId).executeTakeFirst();
  if (!row) throw notFound('Transaction');
  if (!CONFIRMED.includes(row.status)) {
    throw conflict(`Transaction ${row.transaction_no} is ${row.status}: a receipt is issued only for money received (APPROVED or VERIFIED)`,
      'PAYMENT_NOT_CONFIRMED');
  }
  const receipt = await issueReceipt(scope, row.id, now);
  if (!receipt) throw notFound('Transaction'); // deleted meanwhile: confirmed payments never leave their state
  return { row, receipt };
}

/** Everything the receipt shows: who issues it, who paid, for which policies, and what the invoice still needs. */
async function receiptData(ctx: Pick<HandlerContext, 'db' | 'scope' | 'tenant'>, clientId: string, row: ReceiptRow,
  receipt: ReceiptNumber): Promise<ReceiptData> {
  const company = await ctx.db.selectFrom('companies')
    .leftJoin('countries', 'countries.code', 'companies.country')
    .select(['companies.name', 'companies.address', 'companies.email', 'countries.name as country'])
    .where('companies.id', '=', ctx.tenant.id)
    .executeTakeFirstOrThrow();
  const client = await ctx.scope.selectFrom('clients').select(['type', 'first_name', 'other_names', 'last_name', 'company_name', 'email'])
    .where('id', '=', clientId).executeTakeFirstOrThrow();
  const policies = await ctx.scope.selectFrom('invoice_items')
    .innerJoin('policies', (join) => join.onRef('policies.id', '=', 'invoice_items.policy_id').onRef('policies.tenant_id', '=', 'invoice_items.tenant_id'))
    .leftJoin('products', 'products.id', 'policies.product_id')
    .leftJoin('companies as insurer', 'insurer.id', 'products.insurer_id')
    .select(['policies.policy_no', 'policies.policy_type', 'insurer.name as insurer'])
    .where('invoice_items.invoice_id', '=', row.invoice_id)
    .orderBy('policies.policy_no')
    .execute();
  const settledAt = new Date(row.settled_at ?? receipt.issuedAt);
  const paid = await paidUpTo(ctx.scope, row, settledAt);

  const policyholder = clientFullName(client) || client.email || 'Policyholder';
  return {
    company: { name: company.name, address: company.address, country: company.country, email: company.email },
    receiptNo: receipt.receiptNo,
    issuedAt: receipt.issuedAt,
    transactionNo: row.transaction_no,
    paymentDate: row.date_received ?? settledAt.toISOString().slice(0, 10),
    payer: row.payee ?? policyholder,
    policyholder,
    policies: policies.map((p) => ({
      policyNo: p.policy_no, type: POLICY_TYPES[p.policy_type as keyof typeof POLICY_TYPES]?.name ?? p.policy_type, insurer: p.insurer,
    })),
    invoice: { invoiceNo: row.invoice_no, currency: row.invoice_currency, amount: row.invoice_amount },
    balanceAfter: new Decimal(row.invoice_amount).minus(paid),
    amount: row.amount,
    currency: row.currency,
    method: row.payment_method,
    transactionType: row.transaction_type,
    institution: row.payment_institution,
    cheque: row.cheque_no === null ? null
      : { chequeNo: row.cheque_no, chequeDate: row.cheque_date, chequeType: row.cheque_type, nameOnCheque: row.name_on_cheque },
    mobileNumber: row.mobile_number,
    description: row.description,
  };
}

/**
 * Confirmed money on the payment's invoice up to it, in the order money was confirmed (ties by
 * id), so a later payment does not change an earlier receipt's balance.
 */
async function paidUpTo(scope: TenantScope, row: Pick<ReceiptRow, 'id' | 'invoice_id'>, settledAt: Date): Promise<string> {
  const { paid } = await scope.selectFrom('transactions')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('paid'))
    .where('invoice_id', '=', row.invoice_id)
    .where('status', 'in', CONFIRMED)
    .where((eb) => eb.or([
      eb('settled_at', '<', settledAt),
      eb.and([eb('settled_at', '=', settledAt), eb('id', '<=', row.id)]),
      eb('id', '=', row.id),
    ]))
    .executeTakeFirstOrThrow();
  return paid;
}
