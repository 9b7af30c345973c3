import type { ActorKind } from '../../platform/events.js';
import { ApiError } from '../../platform/errors.js';

/** Who moves an entity from one state to another (a payment provider's webhook is `provider`): the kinds of actor every change records. */
export type Mover = ActorKind;

/**
 * A state machine as data: for each state, the states it may move to and who may move it there.
 * Every change of state goes through `assertTransition`, so a forbidden edge fails the same way
 * everywhere (409, naming both states).
 */
export type Machine<S extends string> = { readonly [From in S]: { readonly [To in S]?: readonly Mover[] } };

export function canTransition<S extends string>(machine: Machine<S>, from: S, to: S, by: Mover): boolean {
  return machine[from][to]?.includes(by) ?? false;
}

export function assertTransition<S extends string>(machine: Machine<S>, what: string, from: S, to: S, by: Mover): void {
  if (!canTransition(machine, from, to, by)) {
    throw new ApiError(409, 'INVALID_STATE_TRANSITION', `${what} cannot move from ${from} to ${to}${by === 'system' ? '' : ` by a ${by}`}`);
  }
}
