import { ApiError } from '../../server/platform/errors.js';
import { assertTransition, canTransition, type Mover } from '../../server/domain/states/machine.js';
import { CLOSURE_STATES } from '../../server/domain/states/closure.js';
import type { PolicyClosureStatus } from '../../server/platform/db/schema.js';

const states = Object.keys(CLOSURE_STATES) as PolicyClosureStatus[];
const movers: Mover[] = ['client', 'staff', 'system', 'provider'];

/** docs/docs/state-machines.md: staff decide a request under review, once; nobody else moves it. */
const ALLOWED: Array<[PolicyClosureStatus, PolicyClosureStatus, Mover]> = [
  ['PENDING_REVIEW', 'APPROVED', 'staff'], ['PENDING_REVIEW', 'REJECTED', 'staff'],
];
const allowed = (from: PolicyClosureStatus, to: PolicyClosureStatus, by: Mover) => ALLOWED.some(([f, t, b]) => f === from && t === to && b === by);
const FORBIDDEN = states.flatMap((from) => states.flatMap((to) => movers.filter((by) => !allowed(from, to, by)).map((by) => [from, to, by] as const)));

describe('the policy closure state machine', () => {
  it('knows every closure status', () => {
    expect([...states].sort()).toEqual(['APPROVED', 'PENDING_REVIEW', 'REJECTED']);
  });

  it.each(ALLOWED)('allows %s -> %s by %s', (from, to, by) => {
    expect(canTransition(CLOSURE_STATES, from, to, by)).toBe(true);
    expect(() => assertTransition(CLOSURE_STATES, 'The closure request for policy POL-0001', from, to, by)).not.toThrow();
  });

  it.each(FORBIDDEN)('refuses %s -> %s by %s with a 409 naming both statuses', (from, to, by) => {
    expect(canTransition(CLOSURE_STATES, from, to, by)).toBe(false);
    let thrown: unknown;
    try {
      assertTransition(CLOSURE_STATES, 'The closure request for policy POL-0001', from, to, by);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).statusCode).toBe(409);
    expect((thrown as ApiError).code).toBe('INVALID_STATE_TRANSITION');
    expect((thrown as ApiError).message).toContain(`from ${from} to ${to}`);
  });

  it('refuses every edge but the two decisions (34 of 36), and nothing leaves a decided request', () => {
    expect(FORBIDDEN).toHaveLength(states.length * states.length * movers.length - ALLOWED.length);
    expect(CLOSURE_STATES.APPROVED).toEqual({});
    expect(CLOSURE_STATES.REJECTED).toEqual({});
  });
});
