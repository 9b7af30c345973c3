import { ApiError } from '../../server/platform/errors.js';
import { canTransition, type Machine, type Mover } from '../../server/domain/states/machine.js';
import { CLAIM_STAGES, CLAIM_STATUSES, moveClaim, type ClaimMove, type ClaimState } from '../../server/domain/states/claim.js';
import type { ClaimStage, ClaimStatus } from '../../server/platform/db/schema.js';
import type { TransactionScope } from '../../server/platform/tenancy.js';

/**
 * The claim machines, edge by edge, through `moveClaim` itself: every (from, to) pair of each
 * machine that it does not allow staff is refused with 409 INVALID_STATE_TRANSITION naming both
 * states, before anything is written (the scope given here fails any query).
 */

const noWrites = new Proxy({}, { get: () => { throw new Error('moveClaim touched the database for a refused move'); } }) as TransactionScope;
const claim = (status: ClaimStatus, stage: ClaimStage): ClaimState => ({ id: '00000000-0000-4000-8000-000000000001', claimNo: 'CLM-0001', status, stage });
const staff = { by: 'staff' as const, id: '00000000-0000-4000-8000-000000000002' };

function pairs<S extends string>(machine: Machine<S>, by: Mover) {
  const states = Object.keys(machine) as S[];
  const all = states.flatMap((from) => states.map((to) => ({ from, to })));
  return { allowed: all.filter(({ from, to }) => canTransition(machine, from, to, by)), refused: all.filter(({ from, to }) => !canTransition(machine, from, to, by)) };
}

async function expectRefused(state: ClaimState, move: ClaimMove, from: string) {
  const error = await moveClaim(noWrites, state, move, staff, new Date(), 'notes').then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect({ status: (error as ApiError).statusCode, code: (error as ApiError).code }).toEqual({ status: 409, code: 'INVALID_STATE_TRANSITION' });
  expect((error as ApiError).message).toBe(`Claim CLM-0001 ${move.field} cannot move from ${from} to ${move.to} by a staff`);
}

describe('the claim machines, through moveClaim', () => {
  it('allows staff exactly REVIEW -> SETTLEMENT -> SETTLED, REVIEW -> REPUDIATION -> REJECTED, and ACTIVE -> CLOSED', () => {
    expect(pairs(CLAIM_STAGES, 'staff').allowed.map(({ from, to }) => `${from}->${to}`).sort())
      .toEqual(['REPUDIATION->REJECTED', 'REVIEW->REPUDIATION', 'REVIEW->SETTLEMENT', 'SETTLEMENT->SETTLED']);
    expect(pairs(CLAIM_STATUSES, 'staff').allowed.map(({ from, to }) => `${from}->${to}`)).toEqual(['ACTIVE->CLOSED']);
  });

  const stageRefusals = pairs(CLAIM_STAGES, 'staff').refused;
  it.each(stageRefusals.map(({ from, to }) => [from, to]))('refuses stage %s -> %s with 409 naming both', async (from, to) => {
    await expectRefused(claim('ACTIVE', from), { field: 'stage', to }, from);
  });

  const statusRefusals = pairs(CLAIM_STATUSES, 'staff').refused;
  it.each(statusRefusals.map(({ from, to }) => [from, to]))('refuses status %s -> %s with 409 naming both', async (from, to) => {
    await expectRefused(claim(from, 'SETTLED'), { field: 'status', to }, from);
  });

  it('covers every refused pair (21 stage pairs, 3 status pairs)', () => {
    expect(stageRefusals).toHaveLength(25 - 4);
    expect(statusRefusals).toHaveLength(4 - 1);
  });
});
