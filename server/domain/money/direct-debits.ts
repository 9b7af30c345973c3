import { addDays, addMonths, addWeeks, addYears, format, parseISO } from 'date-fns';
import type { DirectDebitFrequency, PolicyState } from '../../platform/db/schema.js';
import type { EventActor } from '../../platform/events.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { emit, type EventServices } from '../events/catalogue.js';

/**
 * Direct debit mandates (docs/docs/state-machines.md): a client asks for its policy's invoice to be paid
 * by mobile money in instalments; on each due date the due-debit job (server/domain/money/due-debits.ts)
 * raises a MOBILE_MONEY payment against the invoice, as POST /client/transactions would.
 */

/** Policies a mandate can be set up on: invoiced and unpaid, or already waiting for debits. */
export const DEBITABLE_STATES: readonly PolicyState[] = ['PROCESSING', 'AWAITING_DEBIT'];

/**
 * Policies whose debits stop: they will never be in force again, so nothing more is collected
 * for them (the job cancels their mandates, saying why).
 */
export const ENDED_POLICY_STATES: readonly PolicyState[] = ['CANCELLED', 'DECLINED', 'EXPIRED', 'COMPLETE', 'ARCHIVED'];

const STEP: Record<DirectDebitFrequency, (date: Date, n: number) => Date> = {
  DAILY: addDays,
  WEEKLY: addWeeks,
  MONTHLY: addMonths,
  QUARTERLY: (date, n) => addMonths(date, 3 * n),
  HALF_YEARLY: (date, n) => addMonths(date, 6 * n),
  YEARLY: addYears,
};

/**
 * The `index`-th due date of a mandate (0 is `startDate`), counted from the start each time so
 * that month ends do not drift: monthly from 31 January is 28 (or 29) February, then 31 March.
 */
export function dueDate(startDate: string, frequency: DirectDebitFrequency, index: number): string {
  return format(STEP[frequency](parseISO(startDate), index), 'yyyy-MM-dd');
}

/**
 * The invoice is paid in full (confirmed money covers it; its lock is held): its active
 * mandates have run their course.
 */
export async function completeMandatesOfPaidInvoice(scope: TransactionScope, invoice: { id: string; invoice_no: string }, at: Date) {
  await scope.updateTable('direct_debits').set({
    status: 'COMPLETED', next_debit_date: null, completed_at: at, completion_reason: `Invoice ${invoice.invoice_no} paid in full`, updated_at: at,
  }).where('invoice_id', '=', invoice.id).where('status', '=', 'ACTIVE').execute();
}

/**
 * Cancels a mandate still `ACTIVE` (its lock is held), keeping why and, when staff did, who: no
 * further debit is raised; then `directDebit.cancelled` by `actor`. What a client's or staff's
 * cancellation, the due-debit job (policy ended) and an approved policy closure each do. A mandate
 * no longer ACTIVE is left as it is, and nothing is recorded.
 */
export async function cancelActiveMandate(services: EventServices, scope: TransactionScope, id: string, reason: string, actor: EventActor, at: Date) {
  const cancelled = await scope.updateTable('direct_debits').set({
    status: 'CANCELLED', next_debit_date: null, cancel_reason: reason, cancelled_at: at,
    cancelled_by_staff_id: actor.by === 'staff' ? actor.id : null, updated_at: at,
  }).where('id', '=', id).where('status', '=', 'ACTIVE').executeTakeFirst();
  if (Number(cancelled.numUpdatedRows) !== 1) return;
  await emit(services, scope, actor, { type: 'directDebit.cancelled', object: { type: 'directDebit', id }, data: {} }, at,
    { previous: { status: 'ACTIVE' } });
}
