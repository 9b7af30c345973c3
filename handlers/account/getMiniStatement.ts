import { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import { toCents } from '../../server/domain/money/billing.js';
import { CONFIRMED } from '../../server/domain/states/transaction.js';
import { clientId } from '../../server/platform/actor.js';
import { claimColumns, claimQuery, toClaimSummary } from '../../server/domain/claims/view.js';
import { invoiceRows, toInvoices } from '../../server/domain/money/invoice-view.js';
import { policySummaries, toPolicySummary } from '../../server/domain/policies/view.js';
import { toTransactions, transactionRows } from '../../server/domain/money/transaction-view.js';
import type { Handler } from '../types.js';

/**
 * The client's position at a glance. It reads through the list endpoints' own views (policy
 * summaries, invoice figures, transactions, claims), so what it shows agrees with them.
 */
export const getMiniStatement: Handler<'getMiniStatement'> = async (ctx) => {
  const owner = clientId(ctx);
  const byState = await ctx.scope.selectFrom('policies').select(['state', (eb) => eb.fn.countAll<string>().as('n')])
    .where('client_id', '=', owner).groupBy('state').orderBy('state').execute();
  const inForce = await policySummaries(ctx.scope, owner)
    .where((eb) => eb.or([eb('policies.state', '=', 'ACTIVE'), eb('policies.state', '=', 'INACTIVE')]))
    .orderBy('policies.end_date').orderBy('policies.policy_no').execute();

  // Not paid in full: confirmed money does not cover the amount.
  const outstanding = await toInvoices(ctx.scope, await invoiceRows(ctx.scope, owner)
    .where(sql<boolean>`invoices.amount > coalesce((select sum(t.amount) from transactions t where t.invoice_id = invoices.id
      and t.tenant_id = invoices.tenant_id and t.status in (${sql.join([...CONFIRMED])})), 0)`)
    .orderBy('invoices.invoice_date').orderBy('invoices.invoice_no').execute());
  const totals = new Map<string, { unpaid: Decimal; converted: Decimal }>();
  for (const invoice of outstanding) {
    const total = totals.get(invoice.currency) ?? { unpaid: new Decimal(0), converted: new Decimal(0) };
    totals.set(invoice.currency, { unpaid: total.unpaid.plus(invoice.amountUnpaid), converted: total.converted.plus(invoice.convertedAmountUnpaid) });
  }

  const openClaims = claimQuery(ctx.scope, owner).where('claims.status', '=', 'ACTIVE');
  const { count: openClaimCount } = await openClaims.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  const newestOpenClaims = await openClaims.select(claimColumns).orderBy('claims.created_at', 'desc').orderBy('claims.id', 'desc').limit(5).execute();

  const recent = await transactionRows(ctx.scope, owner).orderBy('transactions.created_at', 'desc').orderBy('transactions.id', 'desc').limit(5).execute();
  return {
    data: {
      asOf: ctx.clock.now().toISOString(),
      policies: {
        total: byState.reduce((sum, row) => sum + Number(row.n), 0),
        byState: Object.fromEntries(byState.map((row) => [row.state, Number(row.n)])),
        inForce: inForce.map(toPolicySummary),
      },
      outstandingInvoices: {
        count: outstanding.length,
        totals: [...totals].map(([currency, t]) => ({ currency, amountUnpaid: toCents(t.unpaid).toNumber(), convertedAmountUnpaid: toCents(t.converted).toNumber() })),
        items: outstanding.slice(0, 20).map((invoice) => ({
          id: invoice.id, invoiceNo: invoice.invoiceNo, invoiceDate: invoice.invoiceDate, currency: invoice.currency, amount: invoice.amount,
          amountPaid: invoice.amountPaid, amountUnpaid: invoice.amountUnpaid, status: invoice.status, policyNos: invoice.policies.map((p) => p.policyNo),
        })),
      },
      recentTransactions: await toTransactions(ctx.scope, recent),
      openClaims: { count: Number(openClaimCount), items: newestOpenClaims.map(toClaimSummary) },
    },
  };
};
