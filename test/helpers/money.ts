import { Decimal } from 'decimal.js';
import type { Harness } from './harness.js';

/**
 * The money suites' invariant, checked after every money test: an invoice's figures, as
 * `GET /client/invoices` answers them, are the sums of its payments by status.
 */
export async function expectFiguresAgree(h: Harness, token: string, invoiceId: string) {
  const list = (await h.call({ method: 'GET', url: '/api/v1/client/invoices?usePagination=false', token })).json().data as Array<Record<string, any>>;
  const invoice = list.find((i) => i.id === invoiceId)!;
  const rows = await h.db.selectFrom('transactions').select(['id', 'status', 'amount']).where('invoice_id', '=', invoiceId).execute();
  const sum = (statuses: string[]) => rows.filter((r) => statuses.includes(r.status)).reduce((s, r) => s.plus(r.amount), new Decimal(0)).toNumber();
  expect(invoice.amountApproved).toBe(sum(['APPROVED', 'VERIFIED']));
  expect(invoice.amountUnapproved).toBe(sum(['PENDING_APPROVAL', 'PENDING_VERIFICATION']));
  expect(invoice.amountPaid).toBe(sum(['APPROVED', 'VERIFIED', 'PENDING_APPROVAL', 'PENDING_VERIFICATION']));
  expect(invoice.amountUnpaid).toBe(Math.max(0, new Decimal(invoice.amount).minus(invoice.amountPaid).toNumber()));
  expect(invoice.transactions.map((t: { id: string }) => t.id).sort()).toEqual(rows.map((r) => r.id).sort());
  return invoice;
}
