import { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import { conflict, notFound } from '../../server/platform/errors.js';
import { issueReceipt } from '../../server/domain/money/receipts/number.js';
import { renderReceipt } from '../../server/domain/money/receipts/render.js';
import { CONFIRMED } from '../../server/domain/states/transaction.js';
import { clientFullName } from '../../server/domain/clients/account.js';
import { clientId } from '../../server/platform/actor.js';
import { POLICY_TYPES } from '../../server/domain/policies/types-catalogue.js';
import type { Handler } from '../types.js';
import { transactionColumns, transactionQuery } from '../../server/domain/money/transaction-view.js';

/**
 * The official receipt of one of the client's payments, as a PDF. Only confirmed money has a
 * receipt (409 otherwise); anyone else's payment is a 404, like an unknown id. The receipt number
 * was given when the payment was confirmed (settlePayment); a payment confirmed before receipts
 * were numbered gets its number here, once. The balance is the invoice's once this payment and the
 * confirmed ones before it were counted, so a later payment does not change an earlier receipt.
 */
export const downloadReceipt: Handler<'downloadReceipt'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const row = await transactionQuery(ctx.scope, owner)
    .select([...transactionColumns, 'transactions.settled_at'])
    .where('transactions.id', '=', req.params.id)
    .executeTakeFirst();
  if (!row) throw notFound('Transaction');
  if (!CONFIRMED.includes(row.status)) {
    throw conflict(`Transaction ${row.transaction_no} is ${row.status}: a receipt is issued only for money received (APPROVED or VERIFIED)`,
      'PAYMENT_NOT_CONFIRMED');
  }
  const receipt = await issueReceipt(ctx.scope, row.id, ctx.clock.now());
  if (!receipt) throw notFound('Transaction'); // deleted meanwhile: confirmed payments never leave their state

  const company = await ctx.db.selectFrom('companies')
    .leftJoin('countries', 'countries.code', 'companies.country')
    .select(['companies.name', 'companies.address', 'companies.email', 'countries.name as country'])
    .where('companies.id', '=', ctx.tenant.id)
    .executeTakeFirstOrThrow();
  const client = await ctx.scope.selectFrom('clients').select(['type', 'first_name', 'other_names', 'last_name', 'company_name', 'email'])
    .where('id', '=', owner).executeTakeFirstOrThrow();
  const policies = await ctx.scope.selectFrom('invoice_items')
    .innerJoin('policies', (join) => join.onRef('policies.id', '=', 'invoice_items.policy_id').onRef('policies.tenant_id', '=', 'invoice_items.tenant_id'))
    .leftJoin('products', 'products.id', 'policies.product_id')
    .leftJoin('companies as insurer', 'insurer.id', 'products.insurer_id')
    .select(['policies.policy_no', 'policies.policy_type', 'insurer.name as insurer'])
    .where('invoice_items.invoice_id', '=', row.invoice_id)
    .orderBy('policies.policy_no')
    .execute();
  // Confirmed money on the invoice up to this payment, in the order it was confirmed (ties by id).
  const settledAt = new Date(row.settled_at ?? receipt.issuedAt);
  const { paid } = await ctx.scope.selectFrom('transactions')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('paid'))
    .where('invoice_id', '=', row.invoice_id)
    .where('status', 'in', CONFIRMED)
    .where((eb) => eb.or([
      eb('settled_at', '<', settledAt),
      eb.and([eb('settled_at', '=', settledAt), eb('id', '<=', row.id)]),
      eb('id', '=', row.id),
    ]))
    .executeTakeFirstOrThrow();

  const policyholder = clientFullName(client) || client.email || 'Policyholder';
  const body = renderReceipt({
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
  });
  return {
    kind: 'file',
    body,
    contentType: 'application/pdf',
    filename: `receipt-${receipt.receiptNo}.pdf`,
    disposition: 'attachment',
    headers: { 'cache-control': 'private, no-store' },
  };
};
