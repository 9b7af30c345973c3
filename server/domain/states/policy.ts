import type { PolicyState } from '../../platform/db/schema.js';
import { conflict } from '../../platform/errors.js';
import type { EventServices } from '../../platform/events.js';
import { emit } from '../events/catalogue.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { assertTransition, type Machine, type Mover } from './machine.js';

/**
 * Policy states (docs/docs/state-machines.md). Created DRAFT (no invoice) or PROCESSING (invoice raised);
 * the invoice paid in full makes it ACTIVE, or INACTIVE until its start date; a direct debit
 * mandate makes it AWAITING_DEBIT; staff underwrite, chase and decline; an approved closure
 * cancels; the expiry job expires; settled policies complete; anything finished can be archived.
 */
export const POLICY_STATES: Machine<PolicyState> = {
  DRAFT: { PROCESSING: ['client', 'staff', 'system'], DECLINED: ['staff'], CANCELLED: ['staff', 'system'] },
  PROCESSING: {
    ACTIVE: ['system', 'staff'], INACTIVE: ['system', 'staff'], AWAITING_DEBIT: ['system'], UNDER_WRITER: ['staff'],
    ACCOUNT_RECEIVABLE: ['staff'], CREDIT_CONTROL: ['staff'], DECLINED: ['staff'], CANCELLED: ['staff', 'system'],
  },
  AWAITING_DEBIT: { ACTIVE: ['system'], INACTIVE: ['system'], CREDIT_CONTROL: ['staff'], CANCELLED: ['staff', 'system'] },
  UNDER_WRITER: { PROCESSING: ['staff'], ACCOUNT_RECEIVABLE: ['staff'], DECLINED: ['staff'] },
  ACCOUNT_RECEIVABLE: { CREDIT_CONTROL: ['staff'], ACTIVE: ['system', 'staff'], INACTIVE: ['system', 'staff'], CANCELLED: ['staff'] },
  CREDIT_CONTROL: { ACTIVE: ['system', 'staff'], INACTIVE: ['system', 'staff'], CANCELLED: ['staff', 'system'] },
  INACTIVE: { ACTIVE: ['system'], CANCELLED: ['staff', 'system'] },
  ACTIVE: { EXPIRED: ['system'], CANCELLED: ['staff', 'system'] },
  EXPIRED: { COMPLETE: ['system', 'staff'], ARCHIVED: ['staff', 'system'] },
  COMPLETE: { ARCHIVED: ['staff', 'system'] },
  DECLINED: { ARCHIVED: ['staff', 'system'] },
  CANCELLED: { ARCHIVED: ['staff', 'system'] },
  ARCHIVED: {},
};

/** The state a new policy starts in. */
export const initialPolicyState = (generateInvoice: boolean): PolicyState => (generateInvoice ? 'PROCESSING' : 'DRAFT');

export interface StateActor { by: Exclude<Mover, 'provider'>; id: string | null }

/** The notes of a policy's first state change (from nothing), written with the policy (server/domain/policies/issue.ts). */
export const INITIAL_STATE_NOTES = 'Created';

/**
 * Moves a policy from `from` to `to` if the machine allows it for this actor, and records the
 * change: its history row and, in the same transaction, `policy.stateChanged` (and
 * `policy.cancelled` when it is cancelled), `previous` its state before. Every move of a policy
 * goes through here, so none goes without its events. The update only applies if the policy is
 * still in `from` (so two racing moves cannot both win).
 */
export async function movePolicy(services: EventServices, scope: TransactionScope, policy: { id: string; policyNo: string; state: PolicyState },
  to: PolicyState, actor: StateActor, at: Date, notes: string | null = null): Promise<void> {
  assertTransition(POLICY_STATES, `Policy ${policy.policyNo}`, policy.state, to, actor.by);
  const moved = await scope.updateTable('policies').set({ state: to, updated_at: at })
    .where('id', '=', policy.id).where('state', '=', policy.state).executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw conflict(`Policy ${policy.policyNo} changed state meanwhile; read it again and retry`, 'STATE_CHANGED');
  await scope.insertInto('policy_state_changes', {
    policy_id: policy.id, from_state: policy.state, to_state: to, actor_kind: actor.by, actor_id: actor.id, notes, created_at: at,
  }).execute();
  const object = { type: 'policy', id: policy.id } as const;
  const previous = { state: policy.state };
  await emit(services, scope, actor, { type: 'policy.stateChanged', object, data: { from: policy.state, to } }, at, { previous });
  if (to === 'CANCELLED') await emit(services, scope, actor, { type: 'policy.cancelled', object, data: { from: policy.state } }, at, { previous });
}
