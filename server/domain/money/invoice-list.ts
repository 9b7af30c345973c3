import { sql, type RawBuilder } from 'kysely';
import type { operations } from '../../../generated/api.js';
import { compiledQuery } from '../../platform/db/compiled-query.js';
import { listOrExport, type ShapedList } from '../../platform/export/listing.js';
import { idOrNumberAs, isId } from '../../platform/filters.js';
import type { StaffActor } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { TenantScope } from '../../platform/tenancy.js';
import { staffNamed } from '../staff/names.js';
import { clientInReach } from '../staff/reach.js';
import { billsPolicy, invoiceColumns, toInvoices, type Invoice, type InvoiceRow } from './invoice-view.js';

export type InvoiceListQuery = NonNullable<operations['listInvoices']['parameters']['query']>;
export type StaffInvoiceListQuery = NonNullable<operations['listStaffInvoices']['parameters']['query']>;
type InvoiceQuery = ReturnType<typeof tenantInvoices>;

const tenantInvoices = (scope: TenantScope) => scope.selectFrom('invoices');
/** The client's invoices: what its list filters and its read by id looks in. */
const clientInvoices = (scope: TenantScope, clientId: string) => tenantInvoices(scope).where('invoices.client_id', '=', clientId);

const billed = (condition: RawBuilder<boolean>) => billsPolicy('invoices.id', 'invoices.tenant_id', condition);
/** The invoice bills the policy `ref` names: by its number, or by its id. */
const billsPolicyRef = (byNumber: boolean, ref: string) => billed(idOrNumberAs(byNumber, ref, 'p.id', 'p.policy_no'));

/** Invoices narrowed by the list's filters: the policy billed (by id or number), and for staff the client and the staff member credited. */
function filterInvoices(invoices: InvoiceQuery, query: Partial<StaffInvoiceListQuery>): InvoiceQuery {
  return invoices
    .$if(query.policy !== undefined, (qb) => qb.where(billsPolicyRef(!isId(query.policy!), query.policy!)))
    .$if(query.clientId !== undefined, (qb) => qb.where('invoices.client_id', '=', query.clientId!))
    .$if(query.staffId !== undefined, (qb) => qb.where(billed(sql<boolean>`p.originating_staff_id = ${query.staffId!}`)))
    .$if(query.staffName !== undefined, (qb) => qb.where(billed(staffNamed('p.originating_staff_id', 'p.tenant_id', query.staffName!))));
}

/** What a client's invoice list is built from: its tenant, its client, and the policy filter's value. */
interface ClientInvoiceValues { tenantId: string; clientId: string; policy?: string }

/**
 * The client's invoices matching the list's filter (the policy billed, by id or by number: each its
 * own shape), as a list whose pages are built once per shape; another client's id matches nothing.
 */
function clientInvoiceList(scope: TenantScope, clientId: string, query: InvoiceListQuery): ShapedList<ClientInvoiceValues, InvoiceRow> {
  const shape = query.policy === undefined ? '' : isId(query.policy) ? 'policy id' : 'policy number';
  const matching = (db: TenantScope['db'], v: ClientInvoiceValues, listShape: string) => clientInvoices(new TenantScope(db, v.tenantId), v.clientId)
    .$if(listShape !== '', (qb) => qb.where(billsPolicyRef(listShape === 'policy number', v.policy!)));
  return {
    name: 'client invoices', shape, db: scope.db,
    values: { tenantId: scope.tenantId, clientId, ...(query.policy === undefined ? {} : { policy: query.policy }) },
    matching, columns: (db, v, listShape) => matching(db, v, listShape).select(invoiceColumns),
  };
}

/** Matching invoices, newest first, with figures derived from their payments: a page, every row, or an .xlsx export. */
export function listInvoices(scope: TenantScope, source: InvoiceQuery | { shaped: ShapedList<any, InvoiceRow> },
  query: InvoiceListQuery, now: Date) {
  return listOrExport({
    ...('shaped' in source ? { shaped: source.shaped } : { matching: source, columns: source.select(invoiceColumns) }),
    query, table: 'invoices', noun: 'invoices',
    toItems: (rows) => toInvoices(scope, rows),
    sheet: { name: 'Invoices', filename: `invoices-${now.toISOString().slice(0, 10)}.xlsx`, columns: [
      { header: 'Invoice No', value: (i: Invoice) => i.invoiceNo },
      { header: 'Invoice date', value: (i) => i.invoiceDate },
      { header: 'Policies', width: 28, value: (i) => i.policies.map((p) => p.policyNo).join(', ') },
      { header: 'Currency', value: (i) => i.currency },
      { header: 'Amount', value: (i) => i.amount },
      { header: 'Paid', value: (i) => i.amountPaid },
      { header: 'Unpaid', value: (i) => i.amountUnpaid },
      { header: 'Approved', value: (i) => i.amountApproved },
      { header: 'Unapproved', value: (i) => i.amountUnapproved },
      { header: 'Status', value: (i) => i.status },
      { header: 'Closed', value: (i) => i.isClosed },
    ] },
  });
}

/** The client's invoices with the list's filter, as the list answers them. */
export const listClientInvoices = (scope: TenantScope, clientId: string, query: InvoiceListQuery, now: Date) =>
  listInvoices(scope, { shaped: clientInvoiceList(scope, clientId, query) }, query, now);

/** The invoices of the clients within a staff member's reach, with the staff list's filters, as the list answers them. */
export function listStaffInvoices(scope: TenantScope, actor: StaffActor, query: StaffInvoiceListQuery, now: Date) {
  const matching = filterInvoices(tenantInvoices(scope).where(clientInReach('invoices.client_id', actor)), query);
  return listInvoices(scope, matching, query, now);
}

/** One invoice of those given, as the lists answer it, or 404. */
async function loadInvoice(scope: TenantScope, invoices: InvoiceQuery, id: string): Promise<Invoice> {
  const row = await invoices.where('invoices.id', '=', id).select(invoiceColumns).executeTakeFirst();
  if (!row) throw notFound('Invoice');
  return (await toInvoices(scope, [row]))[0];
}

/** A client's invoice by id, as the lists read it: built once (the client's read by id is a hot path). */
const clientInvoiceById = compiledQuery((db, params: { tenantId: string; clientId: string; id: string }) =>
  clientInvoices(new TenantScope(db, params.tenantId), params.clientId).where('invoices.id', '=', params.id).select(invoiceColumns));

/** One of the client's invoices, as its list answers it, or 404 (another client's as unknown). */
export async function loadClientInvoice(scope: TenantScope, clientId: string, id: string): Promise<Invoice> {
  const [row] = await clientInvoiceById(scope.db, { tenantId: scope.tenantId, clientId, id });
  if (!row) throw notFound('Invoice');
  return (await toInvoices(scope, [row]))[0];
}

/** One invoice of a client within a staff member's reach, as the list answers it, or 404 (out of reach as unknown). */
export const loadStaffInvoice = (scope: TenantScope, actor: StaffActor, id: string) =>
  loadInvoice(scope, tenantInvoices(scope).where(clientInReach('invoices.client_id', actor)), id);
