import { MESSAGE_TEMPLATES } from '../messages/templates.js';
import { sql } from 'kysely';
import type { Services } from '../../platform/context.js';
import type { PolicyState } from '../../platform/db/schema.js';
import { ApiError } from '../../platform/errors.js';
import { TransactionScope, inTransaction } from '../../platform/tenancy.js';
import { movePolicy } from '../states/policy.js';
import { unpaidInvoicesOf } from './lifecycle.js';
import { todayOf } from '../../platform/clock.js';
import { notifyClient } from '../accounts/notify.js';

/** What the lifecycle job needs: the database, the notifier, and what recording each move's events uses. */
export type LifecycleServices = Pick<Services, 'db' | 'notifier' | 'reactions' | 'eventSnapshots'>;

export interface LifecycleReport {
  /** INACTIVE policies whose start date came: now ACTIVE. */
  started: number;
  /** ACTIVE policies past their end date: now EXPIRED. */
  expired: number;
  /** EXPIRED policies settled: now COMPLETE. */
  completed: number;
  /** Renewal reminders sent. */
  reminded: number;
  /** Policies another run or instance moved first (nothing done here). */
  skipped: number;
  /** Policies that failed (rolled back, tried again on the next run). */
  failed: Array<{ policyId: string; step: string; error: string }>;
}

type Ref = { id: string; tenant_id: string };
const BATCH = 100;

/**
 * The policy lifecycle job, over every tenant, at `now` (its UTC date is today):
 *
 * 1. `EXPIRED` -> `COMPLETE` when settled: every invoice billing the policy paid in full by
 *    confirmed money (or none billing it) and no claim on it still `ACTIVE`. It runs first, so a
 *    policy stays `EXPIRED` for at least one run (15 minutes) before it completes.
 * 2. `INACTIVE` -> `ACTIVE` when its start date is today or earlier ("Start date reached").
 * 3. `ACTIVE` -> `EXPIRED` when its end date is before today ("End date passed").
 * 4. A renewal reminder to the client of each `ACTIVE` policy ending within
 *    `renewalReminderDays` (today included): once per policy and end date, recorded in
 *    `policy_renewal_reminders` in the notification's transaction.
 *
 * Each policy is handled in a small transaction of its own under its tenant's scope, by `system`
 * through `movePolicy` (which records `policy.stateChanged`); the client hears of each move. Safe
 * to run twice and on several instances: a move another run made first loses movePolicy's
 * conditional update (STATE_CHANGED: skipped), and the reminders' unique key lets one insert win. A policy that fails is reported and the
 * others go on; the caller fails the job so it is retried.
 */
export async function runPolicyLifecycle(services: LifecycleServices, now: Date, renewalReminderDays: number): Promise<LifecycleReport> {
  const today = todayOf(now).date;
  const report: LifecycleReport = { started: 0, expired: 0, completed: 0, reminded: 0, skipped: 0, failed: [] };
  const { db } = services;

  await eachPolicy(report, 'complete', (after) => db.selectFrom('policies').select(['id', 'tenant_id'])
    .where('state', '=', 'EXPIRED').where('id', '>', after)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('claims').select(sql.lit(1).as('one'))
      .whereRef('claims.policy_id', '=', 'policies.id').where('claims.status', '=', 'ACTIVE'))))
    .orderBy('id').limit(BATCH).execute(),
  (ref) => move(services, ref, {
    from: 'EXPIRED', to: 'COMPLETE', now, notes: 'Settled: invoice paid in full and no claim open',
    ready: async (scope) => (await unpaidInvoicesOf(scope, ref.id)).length === 0
      && !(await scope.selectFrom('claims').select('id').where('policy_id', '=', ref.id).where('status', '=', 'ACTIVE').executeTakeFirst()),
  }));

  await eachPolicy(report, 'start', (after) => db.selectFrom('policies').select(['id', 'tenant_id'])
    .where('state', '=', 'INACTIVE').where('start_date', '<=', today).where('id', '>', after).orderBy('id').limit(BATCH).execute(),
  (ref) => move(services, ref, { from: 'INACTIVE', to: 'ACTIVE', now, notes: 'Start date reached' }));

  await eachPolicy(report, 'expire', (after) => db.selectFrom('policies').select(['id', 'tenant_id'])
    .where('state', '=', 'ACTIVE').where('end_date', '<', today).where('id', '>', after).orderBy('id').limit(BATCH).execute(),
  (ref) => move(services, ref, { from: 'ACTIVE', to: 'EXPIRED', now, notes: 'End date passed' }));

  if (renewalReminderDays > 0) {
    const last = todayOf(new Date(now.getTime() + renewalReminderDays * 86_400_000)).date;
    await eachPolicy(report, 'remind', (after) => db.selectFrom('policies').select(['id', 'tenant_id'])
      .where('state', '=', 'ACTIVE').where('end_date', '>=', today).where('end_date', '<=', last).where('id', '>', after)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('policy_renewal_reminders').select(sql.lit(1).as('one'))
        .whereRef('policy_renewal_reminders.policy_id', '=', 'policies.id').whereRef('policy_renewal_reminders.end_date', '=', 'policies.end_date'))))
      .orderBy('id').limit(BATCH).execute(),
    (ref) => remind(services, ref, now));
  }
  return report;
}

type Outcome = 'started' | 'expired' | 'completed' | 'reminded' | 'skipped';

/**
 * Handles every policy `candidates` finds, a page at a time in id order: a handled policy leaves
 * the set (or failed, and waits for the next run), so the pages move on by id.
 */
async function eachPolicy(report: LifecycleReport, step: string, candidates: (after: string) => Promise<Ref[]>,
  handle: (ref: Ref) => Promise<Outcome>): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const page = await candidates(after);
    for (const ref of page) {
      try {
        report[await handle(ref)] += 1;
      } catch (error) {
        report.failed.push({ policyId: ref.id, step, error: error instanceof Error ? error.message : String(error) });
      }
    }
    if (page.length < BATCH) return;
    after = page[page.length - 1].id;
  }
}

const OUTCOME: Partial<Record<PolicyState, Outcome>> = { ACTIVE: 'started', EXPIRED: 'expired', COMPLETE: 'completed' };

const MOVED: Partial<Record<PolicyState, (policyNo: string) => string>> = {
  ACTIVE: (policyNo) => `Your policy ${policyNo} has reached its start date: you are covered from today.`,
  EXPIRED: (policyNo) => `Your policy ${policyNo} has passed its end date and no longer covers you. Renew it to stay covered.`,
  COMPLETE: (policyNo) => `Your policy ${policyNo} is complete: it has expired, is paid in full and has no claim open.`,
};

/** A move the lifecycle makes: from and to which state, when, why, and whether a locked policy is ready for it (yes unless told). */
interface LifecycleMove {
  from: PolicyState;
  to: PolicyState;
  now: Date;
  notes: string;
  ready?: (scope: TransactionScope) => Promise<boolean>;
}

/**
 * One policy from `from` to `to`, by the system, in its own transaction: skipped when it is no
 * longer in `from` (another run moved it) or `ready` says no once its row is locked.
 */
async function move(services: LifecycleServices, ref: Ref, { from, to, now, notes, ready = async () => true }: LifecycleMove): Promise<Outcome> {
  try {
    return await inTransaction(services.db, async (trx) => {
      const scope = new TransactionScope(trx, ref.tenant_id);
      const policy = await scope.selectFrom('policies').select(['id', 'policy_no', 'state', 'client_id']).where('id', '=', ref.id)
        .forUpdate().executeTakeFirst();
      if (!policy || policy.state !== from || !(await ready(scope))) return 'skipped';
      await movePolicy(services, scope, { id: policy.id, policyNo: policy.policy_no, state: from }, to, { by: 'system', id: null }, now, notes);
      await notifyClient(services, scope, policy.client_id, {
        title: `Policy ${policy.policy_no} is now ${to}`, body: MOVED[to]!(policy.policy_no), entity: { name: 'policy', id: policy.id },
      });
      return OUTCOME[to]!;
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'STATE_CHANGED') return 'skipped'; // a racing move won
    throw error;
  }
}

/** One renewal reminder: recorded (unique per policy and end date) and sent in the same transaction, or skipped when already sent. */
async function remind(services: LifecycleServices, ref: Ref, now: Date): Promise<Outcome> {
  return inTransaction(services.db, async (trx) => {
    const scope = new TransactionScope(trx, ref.tenant_id);
    const policy = await scope.selectFrom('policies').select(['id', 'policy_no', 'state', 'end_date', 'client_id']).where('id', '=', ref.id)
      .executeTakeFirst();
    if (!policy || policy.state !== 'ACTIVE') return 'skipped';
    const recorded = await scope.insertInto('policy_renewal_reminders', { policy_id: policy.id, end_date: policy.end_date, created_at: now })
      .onConflict((oc) => oc.columns(['tenant_id', 'policy_id', 'end_date']).doNothing()).returning('id').executeTakeFirst();
    if (!recorded) return 'skipped';
    await notifyClient(services, scope, policy.client_id, {
      title: `Policy ${policy.policy_no} ends on ${policy.end_date}`,
      body: `Your policy ${policy.policy_no} ends on ${policy.end_date}. Renew it before then to stay covered.`,
      entity: { name: 'policy', id: policy.id },
      message: { template: MESSAGE_TEMPLATES.policyRenewalReminder },
    });
    return 'reminded';
  });
}
