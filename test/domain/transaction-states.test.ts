import { ApiError } from '../../server/platform/errors.js';
import { assertTransition, canTransition, type Mover } from '../../server/domain/states/machine.js';
import { initialTransactionStatus, TRANSACTION_STATES } from '../../server/domain/states/transaction.js';
import type { TransactionStatus } from '../../server/platform/db/schema.js';

const states = Object.keys(TRANSACTION_STATES) as TransactionStatus[];
const movers: Mover[] = ['client', 'staff', 'system', 'provider'];

/** docs/docs/state-machines.md, edge by edge: what the payment machine must allow (and so, by omission, forbid). */
const ALLOWED: Array<[TransactionStatus, TransactionStatus, Mover]> = [
  ['PENDING_APPROVAL', 'APPROVED', 'staff'], ['PENDING_APPROVAL', 'REJECTED', 'staff'],
  ['PENDING_VERIFICATION', 'VERIFIED', 'provider'], ['PENDING_VERIFICATION', 'ERROR', 'provider'], ['PENDING_VERIFICATION', 'ERROR', 'system'],
  ['PENDING_PAYMENT', 'APPROVED', 'provider'], ['PENDING_PAYMENT', 'CANCELLED', 'provider'], ['PENDING_PAYMENT', 'CANCELLED', 'system'],
  ['PENDING_PAYMENT', 'ERROR', 'provider'],
];

describe('the payment state machine', () => {
  it('knows every payment state, and starts a payment by its method', () => {
    expect([...states].sort()).toEqual(['APPROVED', 'CANCELLED', 'ERROR', 'PENDING_APPROVAL', 'PENDING_PAYMENT', 'PENDING_VERIFICATION',
      'REJECTED', 'VERIFIED']);
    expect(['CASH', 'CHEQUE', 'BANK_TRANSFER'].map((m) => initialTransactionStatus(m as 'CASH'))).toEqual(Array(3).fill('PENDING_APPROVAL'));
    expect(initialTransactionStatus('MOBILE_MONEY')).toBe('PENDING_VERIFICATION');
    expect(initialTransactionStatus('ONLINE')).toBe('PENDING_PAYMENT');
  });

  it('allows exactly the edges of the design, no more', () => {
    const allowed = states.flatMap((from) => states.flatMap((to) => movers
      .filter((by) => canTransition(TRANSACTION_STATES, from, to, by)).map((by) => [from, to, by])));
    expect(allowed.sort()).toEqual([...ALLOWED].sort());
  });

  it.each(ALLOWED)('allows %s -> %s by %s', (from, to, by) => {
    expect(() => assertTransition(TRANSACTION_STATES, 'Transaction TRX-0001', from, to, by)).not.toThrow();
  });

  it('refuses every other edge with a 409 INVALID_STATE_TRANSITION naming both states', () => {
    let refused = 0;
    for (const from of states) for (const to of states) for (const by of movers) {
      if (ALLOWED.some(([f, t, b]) => f === from && t === to && b === by)) continue;
      refused += 1;
      let thrown: unknown;
      try { assertTransition(TRANSACTION_STATES, 'Transaction TRX-0001', from, to, by); } catch (error) { thrown = error; }
      expect({ from, to, by, thrown: thrown instanceof ApiError }).toEqual({ from, to, by, thrown: true });
      expect((thrown as ApiError).statusCode).toBe(409);
      expect((thrown as ApiError).code).toBe('INVALID_STATE_TRANSITION');
      expect((thrown as ApiError).message).toContain(`Transaction TRX-0001 cannot move from ${from} to ${to}`);
    }
    expect(refused).toBe(states.length * states.length * movers.length - ALLOWED.length);
  });

  it('lets staff decide only payments waiting for them; settled payments are final', () => {
    const staffEdges = states.flatMap((from) => states.filter((to) => canTransition(TRANSACTION_STATES, from, to, 'staff')).map((to) => `${from}->${to}`));
    expect(staffEdges).toEqual(['PENDING_APPROVAL->APPROVED', 'PENDING_APPROVAL->REJECTED']);
    for (const settled of ['APPROVED', 'VERIFIED', 'CANCELLED', 'REJECTED', 'ERROR'] as const) expect(Object.keys(TRANSACTION_STATES[settled])).toEqual([]);
  });
});
