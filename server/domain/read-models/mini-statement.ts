import { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { claimColumns, claimQuery, toClaimSummary } from '../claims/view.js';
import { toCents } from '../money/billing.js';
import { invoiceRows, toInvoices } from '../money/invoice-view.js';
import { toTransactions, transactionRows } from '../money/transaction-view.js';
import { policySummaries, toPolicySummary } from '../policies/view.js';
import { CONFIRMED } from '../states/transaction.js';

type MiniStatement = components['schemas']['MiniStatement'];

/** The client's policies: how many in each state, and those in force by end date. */
async function policiesPart(scope: TenantScope, clientId: string): Promise<MiniStatement['policies']> {
  const byState = await scope.selectFrom('policies').select(['state', (eb) => eb.fn.countAll<string>().as('n')])
    .where('client_id', '=', clientId).groupBy('state').orderBy('state').execute();
  const inForce = await policySummaries(scope, clientId)
    .where((eb) => eb.or([eb('policies.state', '=', 'ACTIVE'), eb('policies.state', '=', 'INACTIVE')]))
    .orderBy('policies.end_date').orderBy('policies.policy_no').execute();
  return {
    total: byState.reduce((sum, row) => sum + Number(row.n), 0),
    byState: Object.fromEntries(byState.map((row) => [row.state, Number(row.n)])),
    inForce: inForce.map(toPolicySummary),
  };
}

/** The client's invoices not paid in full (confirmed money does not cover the amount), with totals per currency. */
async function outstandingPart(scope: TenantScope, clientId: string): Promise<MiniStatement['outstandingInvoices']> {
  const outstanding = await toInvoices(scope, await invoiceRows(scope, clientId)
    .where(sql<boolean>`invoices.amount > coalesce((select sum(t.amount) from transactions t where t.invoice_id = invoices.id
      and t.tenant_id = invoices.tenant_id and t.status in (${sql.join([...CONFIRMED])})), 0)`)
    .orderBy('invoices.invoice_date').orderBy('invoices.invoice_no').execute());
  const totals = new Map<string, { unpaid: Decimal; converted: Decimal }>();
  for (const invoice of outstanding) {
    const total = totals.get(invoice.currency) ?? { unpaid: new Decimal(0), converted: new Decimal(0) };
    totals.set(invoice.currency, { unpaid: total.unpaid.plus(invoice.amountUnpaid), converted: total.converted.plus(invoice.convertedAmountUnpaid) });
  }
  return {
    count: outstanding.length,
    totals: [...totals].map(([currency, t]) => ({ currency, amountUnpaid: toCents(t.unpaid).toNumber(), convertedAmountUnpaid: toCents(t.converted).toNumber() })),
    items: outstanding.slice(0, 20).map((invoice) => ({
      id: invoice.id, invoiceNo: invoice.invoiceNo, invoiceDate: invoice.invoiceDate, currency: invoice.currency, amount: invoice.amount,
      amountPaid: invoice.amountPaid, amountUnpaid: invoice.amountUnpaid, status: invoice.status, policyNos: invoice.policies.map((p) => p.policyNo),
    })),
  };
}

/** The client's open claims: how many, and the newest five. */
async function openClaimsPart(scope: TenantScope, clientId: string): Promise<MiniStatement['openClaims']> {
  const openClaims = claimQuery(scope, clientId).where('claims.status', '=', 'ACTIVE');
  const { count } = await openClaims.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  const newest = await openClaims.select(claimColumns).orderBy('claims.created_at', 'desc').orderBy('claims.id', 'desc').limit(5).execute();
  return { count: Number(count), items: newest.map(toClaimSummary) };
}

/**
 * The client's position at a glance. It reads through the list endpoints' own views (policy
 * summaries, invoice figures, transactions, claims), so what it shows agrees with them.
 */
export async function miniStatement(ctx: Pick<HandlerContext, 'clock' | 'scope'>, clientId: string): Promise<MiniStatement> {
  const policies = await policiesPart(ctx.scope, clientId);
  const outstandingInvoices = await outstandingPart(ctx.scope, clientId);
  const openClaims = await openClaimsPart(ctx.scope, clientId);
  const recent = await transactionRows(ctx.scope, clientId).orderBy('transactions.created_at', 'desc').orderBy('transactions.id', 'desc').limit(5).execute();
  return {
    asOf: ctx.clock.now().toISOString(),
    policies,
    outstandingInvoices,
    recentTransactions: await toTransactions(ctx.scope, recent, ctx.clock.now()),
    openClaims,
  };
}
