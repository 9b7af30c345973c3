import { Decimal } from 'decimal.js';
import type { Selectable } from 'kysely';
import type { Services } from '../../platform/context.js';
import type { DirectDebitsTable } from '../../platform/db/schema.js';
import { cancelActiveMandate, dueDate, ENDED_POLICY_STATES } from './direct-debits.js';
import { invoiceFigures, paymentSums, remainingToPay } from './figures.js';
import { expireCheckouts, lockInvoice, writePayment } from './payments.js';
import { TransactionScope, inTransaction } from '../../platform/tenancy.js';
import { notifyClient } from '../accounts/notify.js';

/** What the due-debit job needs: the database, the payment provider, the notifier, what records its events. */
export type JobServices = Pick<Services, 'db' | 'payments' | 'notifier' | 'reactions' | 'eventSnapshots'>;

export interface DueDebitsReport {
  /** Payments raised. */
  raised: number;
  /** Due dates passed with nothing raised (payments awaiting confirmation already cover the invoice). */
  skipped: number;
  /** Mandates that ran their course (invoice paid, endDate reached). */
  completed: number;
  /** Mandates stopped because their policy ended. */
  cancelled: number;
  /** Mandates that failed (rolled back, tried again on the next run). */
  failed: Array<{ directDebitId: string; error: string }>;
}

type Mandate = Selectable<DirectDebitsTable>;
/** The job is the system's: what it raises and cancels is recorded so. */
const SYSTEM = { by: 'system', id: null } as const;
const BATCH = 100;

/**
 * The due-debit job: every ACTIVE mandate whose next due date is today (UTC) or earlier gets its
 * payment raised, each mandate in one transaction of its own. Missed due dates (the job did not
 * run for a while) are each debited, oldest first, never beyond what the invoice owes.
 *
 * Safe to run twice, and on several instances at once: a mandate is handled under its invoice's
 * lock, then its own, and only if it is still due once both are held; a second run finds it
 * already moved on. `direct_debit_runs` is unique per (mandate, due date), the last wall, and is
 * written before the provider is asked for the prompt.
 */
export async function raiseDueDebits(services: JobServices, now: Date): Promise<DueDebitsReport> {
  const today = now.toISOString().slice(0, 10);
  const report: DueDebitsReport = { raised: 0, skipped: 0, completed: 0, cancelled: 0, failed: [] };
  // One pass in id order: a handled mandate is no longer due (or failed and waits for the next run).
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const due = await services.db.selectFrom('direct_debits').select(['id', 'tenant_id', 'invoice_id'])
      .where('status', '=', 'ACTIVE').where('next_debit_date', '<=', today).where('id', '>', after)
      .orderBy('id').limit(BATCH).execute();
    for (const ref of due) {
      try {
        await debitMandate(services, ref, now, today, report);
      } catch (error) {
        report.failed.push({ directDebitId: ref.id, error: error instanceof Error ? error.message : String(error) });
      }
    }
    if (due.length < BATCH) return report;
    after = due[due.length - 1].id;
  }
}

/** One mandate's due dates up to today, in one transaction (rolled back whole on failure). */
async function debitMandate(services: JobServices, ref: { id: string; tenant_id: string; invoice_id: string }, now: Date, today: string,
  report: DueDebitsReport): Promise<void> {
  const counts = { raised: 0, skipped: 0, completed: 0, cancelled: 0 };
  await inTransaction(services.db, async (trx) => {
    const scope = new TransactionScope(trx, ref.tenant_id);
    // Locks in the order payments take them: the invoice, then what hangs on it.
    const invoice = await lockInvoice(scope, ref.invoice_id);
    const mandate = await scope.selectFrom('direct_debits').selectAll().where('id', '=', ref.id).forUpdate().executeTakeFirst();
    if (!invoice || !mandate || mandate.status !== 'ACTIVE' || mandate.next_debit_date! > today) return; // another run got here first

    const policy = await scope.selectFrom('policies').select(['policy_no', 'state']).where('id', '=', mandate.policy_id).executeTakeFirstOrThrow();
    if (ENDED_POLICY_STATES.includes(policy.state)) {
      await cancelActiveMandate(services, scope, mandate.id, `Policy ${policy.policy_no} is ${policy.state}: nothing more is debited for it`, SYSTEM, now);
      counts.cancelled += 1;
      return;
    }
    await expireCheckouts(services, scope, invoice.id, now);
    const client = await scope.selectFrom('clients').select(['id', 'email', 'phone_number']).where('id', '=', mandate.client_id).executeTakeFirstOrThrow();

    let index = mandate.due_count;
    let due = mandate.next_debit_date!;
    const finish = async (values: { status: 'COMPLETED'; completion_reason: string } | { next_debit_date: string }) => {
      await scope.updateTable('direct_debits').set({
        due_count: index, updated_at: now,
        ...('status' in values ? { ...values, next_debit_date: null, completed_at: now } : values),
      }).where('id', '=', mandate.id).execute();
    };
    while (due <= today) {
      const sums = (await paymentSums(scope, [invoice.id])).get(invoice.id)!;
      if (invoiceFigures(invoice.amount, invoice.exchange_rate, sums).isClosed) {
        await finish({ status: 'COMPLETED', completion_reason: `Invoice ${invoice.invoice_no} paid in full` });
        counts.completed += 1;
        return;
      }
      const remaining = remainingToPay(invoice.amount, sums);
      if (remaining.lessThanOrEqualTo(0)) {
        await scope.insertInto('direct_debit_runs', {
          direct_debit_id: mandate.id, due_date: due, outcome: 'SKIPPED', amount: '0.00', created_at: now,
          note: `Nothing debited: payments awaiting confirmation already cover what invoice ${invoice.invoice_no} owes`,
        }).execute();
        counts.skipped += 1;
      } else {
        await raise(services, scope, { mandate, invoice, client, policyNo: policy.policy_no, due, amount: Decimal.min(mandate.amount, remaining), now, today });
        counts.raised += 1;
      }
      index += 1;
      due = dueDate(mandate.start_date, mandate.frequency, index);
      if (mandate.end_date !== null && due > mandate.end_date) {
        await finish({ status: 'COMPLETED', completion_reason: `Its last due date on or before its endDate (${mandate.end_date}) was debited` });
        counts.completed += 1;
        return;
      }
    }
    await finish({ next_debit_date: due });
  });
  // Counted once committed: a rolled-back mandate counts only as failed.
  report.raised += counts.raised;
  report.skipped += counts.skipped;
  report.completed += counts.completed;
  report.cancelled += counts.cancelled;
}

/** One due date of a mandate to debit: the mandate and its locked invoice, whom to tell, the amount, and the day it falls on. */
interface DueDebit {
  mandate: Mandate;
  invoice: NonNullable<Awaited<ReturnType<typeof lockInvoice>>>;
  client: { id: string; email: string | null; phone_number: string | null };
  policyNo: string;
  due: string;
  amount: Decimal;
  now: Date;
  today: string;
}

/** One debit: the run (unique per due date) first, then the payment and its wallet prompt, then the client hears of it. */
async function raise(services: JobServices, scope: TransactionScope, { mandate, invoice, client, policyNo, due, amount, now, today }: DueDebit) {
  const run = await scope.insertInto('direct_debit_runs', {
    direct_debit_id: mandate.id, due_date: due, outcome: 'RAISED', amount: amount.toFixed(2), note: null, created_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  const payment = await writePayment(services, scope, {
    invoice, clientId: mandate.client_id, method: 'MOBILE_MONEY', amount, exchangeRate: new Decimal(invoice.exchange_rate), dateReceived: today,
    details: {
      description: mandate.description ?? `Direct debit due ${due} for policy ${policyNo}`,
      mobile_number: mandate.mobile_number,
      direct_debit_id: mandate.id,
      document_ids: '[]',
    },
    actor: SYSTEM,
    at: now,
  });
  await scope.updateTable('direct_debit_runs').set({ transaction_id: payment.id }).where('id', '=', run.id).execute();
  await notifyClient(services, scope, client, {
    title: `Direct debit ${payment.transactionNo} raised`,
    body: `Your direct debit for policy ${policyNo} (due ${due}) asks ${invoice.currency} ${amount.toFixed(2)} from ${mandate.mobile_number}`
      + ` toward invoice ${invoice.invoice_no}. Approve the prompt on your phone to pay it.`,
    entity: { name: 'transaction', id: payment.id },
  });
}
