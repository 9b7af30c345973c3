import { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { components, operations } from '../../../generated/api.js';
import type { StaffActor } from '../../platform/context.js';
import type { CommissionRow } from '../../platform/db/schema.js';
import { badRequest } from '../../platform/errors.js';
import { streamWorkbook } from '../../platform/export/xlsx.js';
import type { FileResult } from '../../platform/files.js';
import { isoDate } from '../../platform/filters.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { toCents } from '../money/billing.js';
import { COMMISSION_FIELDS } from '../products/commission.js';
import { staffReferences } from '../staff/names.js';
import { staffInReach } from '../staff/reach.js';
import { CONFIRMED } from '../states/transaction.js';

/**
 * Commission statements (`GET /staff/commissions`, and its spreadsheet): what the policies sold by
 * the staff within the caller's reach earned in a period, from the premium actually received.
 *
 * - Who sold: the policy's originating staff member; reach is over them (`staffInReach`), so an
 *   agent sees their own sales, a head their department's, an executive the company's (policies
 *   nobody sold, bought in a client app, only with the whole company's reach).
 * - Money received: confirmed payments (APPROVED, VERIFIED), on the day they were confirmed
 *   (`settled_at`, UTC). A payment counts only up to what its invoice still owed once the payments
 *   confirmed before it were counted (an overpayment is not premium); an invoice billing several
 *   policies shares it in proportion to each policy's item.
 * - Commissions: the product's three, as they stand now. PERCENTAGE of the premium received; FEE
 *   in proportion to the policy's premium received (the whole fee once it is all received). Each
 *   policy's figures are rounded to the cent, half up; lines and totals are their sums.
 * - A cancelled policy earns on what was received like any other: nothing is refunded through the
 *   API, and what its closure wrote off was never received.
 */

export type CommissionStatement = components['schemas']['CommissionStatement'];
type Line = components['schemas']['CommissionStatementLine'];
type Figures = components['schemas']['CommissionFigures'];
export type CommissionQuery = operations['getCommissionStatement']['parameters']['query'];
type GroupBy = CommissionStatement['groupBy'];

/** The longest period one statement covers. */
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

interface Period { from: string; to: string; start: Date; end: Date }

/** The query's period: real days, `to` not before `from`, at most MAX_DAYS; `end` the instant after `to`. */
function periodOf(query: CommissionQuery): Period {
  const from = isoDate(query.from, 'query.from');
  const to = isoDate(query.to, 'query.to');
  if (to < from) throw badRequest('query.to must not be before query.from');
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS);
  if (end.getTime() - start.getTime() > MAX_DAYS * DAY_MS) throw badRequest(`query.to: a statement covers at most ${MAX_DAYS} days`);
  return { from, to, start, end };
}

/** What each invoice with money confirmed in the period received in it, counted up to what it still owed. */
async function receivedByInvoice(scope: TenantScope, period: Period): Promise<Map<string, { received: Decimal; amount: Decimal }>> {
  const confirmed = sql.join([...CONFIRMED]);
  const payments = await scope.selectFrom('transactions')
    .innerJoin('invoices', (join) => join.onRef('invoices.id', '=', 'transactions.invoice_id').onRef('invoices.tenant_id', '=', 'transactions.tenant_id'))
    .select(['transactions.invoice_id', 'transactions.amount', 'invoices.amount as invoice_amount',
      sql<boolean>`transactions.settled_at >= ${period.start}`.as('in_period')])
    .where(sql<boolean>`transactions.status in (${confirmed})`)
    .where('transactions.settled_at', '<', period.end)
    .where(sql<boolean>`transactions.invoice_id in (select p.invoice_id from transactions p where p.tenant_id = transactions.tenant_id
      and p.status in (${confirmed}) and p.settled_at >= ${period.start} and p.settled_at < ${period.end})`)
    .orderBy('transactions.invoice_id').orderBy('transactions.settled_at').orderBy('transactions.id')
    .execute();
  const out = new Map<string, { received: Decimal; amount: Decimal; counted: Decimal }>();
  for (const payment of payments) {
    const invoice = out.get(payment.invoice_id)
      ?? { received: new Decimal(0), amount: new Decimal(payment.invoice_amount), counted: new Decimal(0) };
    const counts = Decimal.min(new Decimal(payment.amount), Decimal.max(0, invoice.amount.minus(invoice.counted)));
    invoice.counted = invoice.counted.plus(counts);
    if (payment.in_period) invoice.received = invoice.received.plus(counts);
    out.set(payment.invoice_id, invoice);
  }
  return out;
}

/** The policies billed by these invoices that the statement covers: in reach, and matching the filters. */
function billedPolicies(scope: TenantScope, actor: StaffActor, query: CommissionQuery, invoiceIds: string[]) {
  return scope.selectFrom('invoice_items')
    .innerJoin('policies', (join) => join.onRef('policies.id', '=', 'invoice_items.policy_id').onRef('policies.tenant_id', '=', 'invoice_items.tenant_id'))
    .innerJoin('products', 'products.id', 'policies.product_id')
    .innerJoin('companies as insurer', 'insurer.id', 'products.insurer_id')
    .innerJoin('invoices', (join) => join.onRef('invoices.id', '=', 'invoice_items.invoice_id').onRef('invoices.tenant_id', '=', 'invoice_items.tenant_id'))
    .select([
      'invoice_items.invoice_id', 'invoice_items.policy_id', 'invoice_items.amount as item_amount', 'invoices.currency',
      'policies.premium', 'policies.originating_staff_id', 'products.id as product_id', 'products.code as product_code',
      'products.name as product_name', 'products.standard_commission', 'products.overrider_commission', 'products.other_commission',
      'insurer.id as insurer_id', 'insurer.name as insurer_name', 'insurer.type as insurer_type',
    ])
    .where('invoice_items.invoice_id', 'in', invoiceIds)
    .where(staffInReach('policies.originating_staff_id', actor))
    .$if(query.staffId !== undefined, (qb) => qb.where('policies.originating_staff_id', '=', query.staffId!))
    .$if(query.productId !== undefined, (qb) => qb.where('policies.product_id', '=', query.productId!))
    .execute();
}
type Billed = Awaited<ReturnType<typeof billedPolicies>>[number];

/** What one commission earns on `received` of a policy whose premium is `premium`, to the cent. */
export function commissionEarned(commission: CommissionRow | null, received: Decimal, premium: Decimal): Decimal {
  if (commission === null || received.isZero()) return new Decimal(0);
  const value = new Decimal(String(commission.value));
  if (commission.type === 'PERCENTAGE') return toCents(received.mul(value).div(100));
  // A FEE is earned as the premium comes in: the whole fee once it has all been received.
  const share = premium.isZero() ? new Decimal(1) : Decimal.min(1, received.div(premium));
  return toCents(value.mul(share));
}

interface PolicyEarning { billed: Billed; received: Decimal }

/** Each covered policy's premium received in the period (exact: shares of invoices are not rounded yet). */
function earningsByPolicy(billed: Billed[], received: Map<string, { received: Decimal; amount: Decimal }>): Map<string, PolicyEarning> {
  const out = new Map<string, PolicyEarning>();
  for (const item of billed) {
    const invoice = received.get(item.invoice_id)!;
    if (invoice.amount.isZero() || invoice.received.isZero()) continue;
    const share = invoice.received.mul(item.item_amount).div(invoice.amount);
    const policy = out.get(item.policy_id) ?? { billed: item, received: new Decimal(0) };
    policy.received = policy.received.plus(share);
    out.set(item.policy_id, policy);
  }
  return out;
}

const zero = (currency: string): Figures => ({
  currency, policiesCount: 0, premiumReceived: 0, standardCommission: 0, overriderCommission: 0, otherCommission: 0, commission: 0,
});

/** `figures` with one more policy's (already rounded) amounts added. */
function add(figures: Figures, more: Omit<Figures, 'currency' | 'policiesCount'>): void {
  figures.policiesCount += 1;
  for (const key of ['premiumReceived', ...COMMISSION_FIELDS, 'commission'] as const) {
    figures[key] = new Decimal(figures[key]).plus(more[key]).toNumber();
  }
}

/** What a line is for, by the grouping, and the key it is summed under. */
function lineKey(groupBy: GroupBy, billed: Billed) {
  switch (groupBy) {
    case 'staff': return billed.originating_staff_id ?? '';
    case 'company': return billed.insurer_id;
    case 'product': return billed.product_id;
  }
}

/** The statement for the caller's reach, the period and the filters (`groupBy` staff by default). */
export async function commissionStatement(scope: TenantScope, actor: StaffActor, query: CommissionQuery): Promise<CommissionStatement> {
  const period = periodOf(query);
  const groupBy: GroupBy = query.groupBy ?? 'staff';
  const company = await scope.db.selectFrom('companies').select(['id', 'name', 'type']).where('id', '=', scope.tenantId).executeTakeFirstOrThrow();
  const received = await receivedByInvoice(scope, period);
  const invoiceIds = [...received].filter(([, invoice]) => invoice.received.greaterThan(0)).map(([id]) => id);
  const billed = invoiceIds.length === 0 ? [] : await billedPolicies(scope, actor, query, invoiceIds);

  const lines = new Map<string, { line: Line; name: string }>();
  const totals = new Map<string, Figures>();
  for (const { billed: policy, received: exact } of earningsByPolicy(billed, received).values()) {
    const premium = new Decimal(policy.premium);
    const amounts = {
      premiumReceived: toCents(exact).toNumber(),
      standardCommission: commissionEarned(policy.standard_commission, exact, premium).toNumber(),
      overriderCommission: commissionEarned(policy.overrider_commission, exact, premium).toNumber(),
      otherCommission: commissionEarned(policy.other_commission, exact, premium).toNumber(),
    };
    const earned = { ...amounts, commission: new Decimal(amounts.standardCommission).plus(amounts.overriderCommission).plus(amounts.otherCommission).toNumber() };
    const key = `${policy.currency}|${lineKey(groupBy, policy)}`;
    if (!lines.has(key)) lines.set(key, newLine(groupBy, policy));
    add(lines.get(key)!.line, earned);
    if (!totals.has(policy.currency)) totals.set(policy.currency, zero(policy.currency));
    add(totals.get(policy.currency)!, earned);
  }

  if (groupBy === 'staff') {
    const staff = await staffReferences(scope, [...lines.values()].map(({ line }) => line.staff?.id ?? null));
    for (const entry of lines.values()) {
      if (entry.line.staff) {
        entry.line.staff = staff.get(entry.line.staff.id) ?? entry.line.staff;
        entry.name = entry.line.staff.fullName;
      }
    }
  }
  const byName = (a: { line: Line; name: string }, b: { line: Line; name: string }) =>
    a.line.currency.localeCompare(b.line.currency) || a.name.localeCompare(b.name) || lineId(a.line).localeCompare(lineId(b.line));
  return {
    company: { id: company.id, name: company.name, type: company.type },
    from: period.from,
    to: period.to,
    groupBy,
    lines: [...lines.values()].sort(byName).map(({ line }) => line),
    totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
  };
}

const lineId = (line: Line) => line.staff?.id ?? line.company?.id ?? line.product?.id ?? '';

/** An empty line for this policy's staff member, insurer or product (a staff member's name is read afterwards, for all lines at once). */
function newLine(groupBy: GroupBy, policy: Billed): { line: Line; name: string } {
  const base = { ...zero(policy.currency), staff: null, company: null, product: null };
  switch (groupBy) {
    case 'staff':
      return {
        line: { ...base, staff: policy.originating_staff_id === null ? null : { name: 'staff', id: policy.originating_staff_id, fullName: '', email: '' } },
        // Sales nobody on the staff made come last.
        name: policy.originating_staff_id === null ? '\uffff' : '',
      };
    case 'company':
      return { line: { ...base, company: { id: policy.insurer_id, name: policy.insurer_name, type: policy.insurer_type } }, name: policy.insurer_name };
    case 'product':
      return {
        line: {
          ...base,
          product: {
            id: policy.product_id, code: policy.product_code, name: policy.product_name, standardCommission: policy.standard_commission,
            overriderCommission: policy.overrider_commission, otherCommission: policy.other_commission,
          },
        },
        name: policy.product_code,
      };
  }
}

/** Who or what a line is for, in words (the spreadsheet's first column). */
function lineLabel(line: Line): string {
  if (line.product) return `${line.product.code} (${line.product.name})`;
  if (line.company) return line.company.name;
  if (line.staff) return line.staff.fullName;
  return 'No staff member (bought in a client app)';
}

const FIGURE_COLUMNS = [
  { header: 'Currency', value: (f: Figures) => f.currency },
  { header: 'Policies', value: (f: Figures) => f.policiesCount },
  { header: 'Premium received', value: (f: Figures) => f.premiumReceived },
  { header: 'Standard commission', value: (f: Figures) => f.standardCommission },
  { header: 'Overrider commission', value: (f: Figures) => f.overriderCommission },
  { header: 'Other commission', value: (f: Figures) => f.otherCommission },
  { header: 'Commission', value: (f: Figures) => f.commission },
];

/** The statement as an .xlsx workbook: a row per line, a blank row, then a `Total` row per currency. */
export async function commissionWorkbook(scope: TenantScope, actor: StaffActor, query: CommissionQuery): Promise<FileResult> {
  const statement = await commissionStatement(scope, actor, query);
  const first = { staff: 'Staff member', company: 'Insurer', product: 'Product' }[statement.groupBy];
  const rows = [
    ...statement.lines.map((line) => [lineLabel(line), ...FIGURE_COLUMNS.map((column) => column.value(line))]),
    ...(statement.totals.length > 0 ? [[]] : []),
    ...statement.totals.map((total) => ['Total', ...FIGURE_COLUMNS.map((column) => column.value(total))]),
  ];
  let sent = false;
  return streamWorkbook('Commissions', `commissions-${statement.from}-${statement.to}-${statement.groupBy}.xlsx`,
    [{ header: first, width: 36 }, ...FIGURE_COLUMNS.map((column) => ({ header: column.header, width: 20 }))],
    async () => {
      if (sent) return undefined;
      sent = true;
      return rows;
    });
}
