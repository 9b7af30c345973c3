import { readFileSync } from 'node:fs';
import { ApiError } from '../../server/platform/errors.js';
import { assertTransition, canTransition, type Mover } from '../../server/domain/states/machine.js';
import { POLICY_STATES, initialPolicyState } from '../../server/domain/states/policy.js';
import type { PolicyState } from '../../server/platform/db/schema.js';

const states = Object.keys(POLICY_STATES) as PolicyState[];
const movers: Mover[] = ['client', 'staff', 'system'];

/**
 * docs/docs/state-machines.md, edge by edge, by state: every edge the machine allows, and so, by omission,
 * every one it forbids. The machine must equal this table exactly: an edge added to or dropped
 * from either fails the test until both agree.
 */
const ALLOWED: Array<[PolicyState, PolicyState, Mover]> = [
  ['DRAFT', 'PROCESSING', 'client'], ['DRAFT', 'PROCESSING', 'staff'], ['DRAFT', 'PROCESSING', 'system'], ['DRAFT', 'DECLINED', 'staff'],
  ['DRAFT', 'CANCELLED', 'staff'], ['DRAFT', 'CANCELLED', 'system'],
  ['PROCESSING', 'ACTIVE', 'system'], ['PROCESSING', 'ACTIVE', 'staff'], ['PROCESSING', 'INACTIVE', 'system'],
  ['PROCESSING', 'INACTIVE', 'staff'], ['PROCESSING', 'AWAITING_DEBIT', 'system'], ['PROCESSING', 'UNDER_WRITER', 'staff'],
  ['PROCESSING', 'ACCOUNT_RECEIVABLE', 'staff'], ['PROCESSING', 'CREDIT_CONTROL', 'staff'], ['PROCESSING', 'DECLINED', 'staff'],
  ['PROCESSING', 'CANCELLED', 'staff'], ['PROCESSING', 'CANCELLED', 'system'],
  ['AWAITING_DEBIT', 'ACTIVE', 'system'], ['AWAITING_DEBIT', 'INACTIVE', 'system'], ['AWAITING_DEBIT', 'CREDIT_CONTROL', 'staff'],
  ['AWAITING_DEBIT', 'CANCELLED', 'staff'], ['AWAITING_DEBIT', 'CANCELLED', 'system'],
  ['UNDER_WRITER', 'PROCESSING', 'staff'], ['UNDER_WRITER', 'ACCOUNT_RECEIVABLE', 'staff'], ['UNDER_WRITER', 'DECLINED', 'staff'],
  ['ACCOUNT_RECEIVABLE', 'CREDIT_CONTROL', 'staff'], ['ACCOUNT_RECEIVABLE', 'ACTIVE', 'system'], ['ACCOUNT_RECEIVABLE', 'ACTIVE', 'staff'],
  ['ACCOUNT_RECEIVABLE', 'INACTIVE', 'system'], ['ACCOUNT_RECEIVABLE', 'INACTIVE', 'staff'], ['ACCOUNT_RECEIVABLE', 'CANCELLED', 'staff'],
  ['CREDIT_CONTROL', 'ACTIVE', 'system'], ['CREDIT_CONTROL', 'ACTIVE', 'staff'], ['CREDIT_CONTROL', 'INACTIVE', 'system'],
  ['CREDIT_CONTROL', 'INACTIVE', 'staff'], ['CREDIT_CONTROL', 'CANCELLED', 'staff'], ['CREDIT_CONTROL', 'CANCELLED', 'system'],
  ['INACTIVE', 'ACTIVE', 'system'], ['INACTIVE', 'CANCELLED', 'staff'], ['INACTIVE', 'CANCELLED', 'system'],
  ['ACTIVE', 'EXPIRED', 'system'], ['ACTIVE', 'CANCELLED', 'staff'], ['ACTIVE', 'CANCELLED', 'system'],
  ['EXPIRED', 'COMPLETE', 'system'], ['EXPIRED', 'COMPLETE', 'staff'], ['EXPIRED', 'ARCHIVED', 'staff'], ['EXPIRED', 'ARCHIVED', 'system'],
  ['COMPLETE', 'ARCHIVED', 'staff'], ['COMPLETE', 'ARCHIVED', 'system'],
  ['DECLINED', 'ARCHIVED', 'staff'], ['DECLINED', 'ARCHIVED', 'system'],
  ['CANCELLED', 'ARCHIVED', 'staff'], ['CANCELLED', 'ARCHIVED', 'system'],
];

describe('the policy state machine', () => {
  it('knows every policy state, and starts policies DRAFT or PROCESSING', () => {
    expect(states.sort()).toEqual(['ACCOUNT_RECEIVABLE', 'ACTIVE', 'ARCHIVED', 'AWAITING_DEBIT', 'CANCELLED', 'COMPLETE', 'CREDIT_CONTROL',
      'DECLINED', 'DRAFT', 'EXPIRED', 'INACTIVE', 'PROCESSING', 'UNDER_WRITER']);
    expect(initialPolicyState(true)).toBe('PROCESSING');
    expect(initialPolicyState(false)).toBe('DRAFT');
  });

  it('allows exactly the edges of the table above, no more and no fewer', () => {
    const machine = states.flatMap((from) => states.flatMap((to) => movers.filter((by) => canTransition(POLICY_STATES, from, to, by)).map((by) => `${from}->${to} by ${by}`)));
    expect(machine.sort()).toEqual(ALLOWED.map(([from, to, by]) => `${from}->${to} by ${by}`).sort());
  });

  it.each(ALLOWED)('allows %s -> %s by %s', (from, to, by) => {
    expect(canTransition(POLICY_STATES, from, to, by)).toBe(true);
    expect(() => assertTransition(POLICY_STATES, 'Policy POL-0001', from, to, by)).not.toThrow();
  });

  it('refuses every other edge with a 409 naming both states', () => {
    let refused = 0;
    for (const from of states) for (const to of states) for (const by of movers) {
      if (POLICY_STATES[from][to]?.includes(by)) continue;
      refused += 1;
      try {
        assertTransition(POLICY_STATES, 'Policy POL-0001', from, to, by);
        throw new Error(`${from} -> ${to} by ${by} was allowed`);
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).statusCode).toBe(409);
        expect((error as ApiError).message).toContain(`from ${from} to ${to}`);
      }
    }
    expect(refused).toBeGreaterThan(400);
  });

  it('lets clients move nothing but a draft to PROCESSING, and nothing leaves ARCHIVED', () => {
    const clientEdges = states.flatMap((from) => states.filter((to) => canTransition(POLICY_STATES, from, to, 'client')).map((to) => `${from}->${to}`));
    expect(clientEdges).toEqual(['DRAFT->PROCESSING']);
    expect(Object.keys(POLICY_STATES.ARCHIVED)).toEqual([]);
    expect(canTransition(POLICY_STATES, 'ACTIVE', 'DRAFT', 'staff')).toBe(false);
  });

  it('lets staff reach by movePolicyState exactly the states the machine lets staff reach, but CANCELLED (a closure decides it)', () => {
    const contract = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
    const offered: string[] = contract.components.schemas.PolicyStateMove.properties.state.enum;
    const staffTargets = new Set(states.flatMap((from) => states.filter((to) => canTransition(POLICY_STATES, from, to, 'staff'))));
    expect([...offered].sort()).toEqual([...staffTargets].filter((state) => state !== 'CANCELLED').sort());
  });
});
