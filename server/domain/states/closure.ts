import type { PolicyClosureStatus as ClosureStatus } from '../../platform/db/schema.js';
import { conflict } from '../../platform/errors.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { assertTransition, type Machine } from './machine.js';

/**
 * Policy closure request statuses (docs/docs/state-machines.md): a client's request waits
 * `PENDING_REVIEW` until staff decide it, `APPROVED` (the policy is cancelled) or `REJECTED`
 * (the policy carries on). A decision is final: nothing moves a decided request, and the client
 * can no longer change or withdraw it.
 */
export const CLOSURE_STATES: Machine<ClosureStatus> = {
  PENDING_REVIEW: { APPROVED: ['staff'], REJECTED: ['staff'] },
  APPROVED: {},
  REJECTED: {},
};

/** Who decided, when, and what they wrote. */
export interface ClosureDecision { staffId: string; at: Date; notes: string | null }

/**
 * Decides a closure request: moves it from `from` to `to` if the machine allows staff to, and
 * records who decided, when and their notes on the request itself (`reviewed_by_staff_id`,
 * `reviewed_at`, `review_notes`; the request's own `from` is always `PENDING_REVIEW`). The update
 * applies only if the request is still in `from`, so two racing decisions cannot both win.
 */
export async function moveClosure(scope: TransactionScope, closure: { id: string; policyNo: string; status: ClosureStatus }, to: ClosureStatus,
  decision: ClosureDecision): Promise<void> {
  assertTransition(CLOSURE_STATES, `The closure request for policy ${closure.policyNo}`, closure.status, to, 'staff');
  const moved = await scope.updateTable('policy_closures').set({
    status: to, reviewed_by_staff_id: decision.staffId, reviewed_at: decision.at, review_notes: decision.notes, updated_at: decision.at,
  }).where('id', '=', closure.id).where('status', '=', closure.status).executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) {
    throw conflict(`The closure request for policy ${closure.policyNo} was decided meanwhile; read it again`, 'STATE_CHANGED');
  }
}
