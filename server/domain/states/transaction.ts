import type { PaymentMethod, TransactionStatus } from '../../platform/db/schema.js';
import { conflict } from '../../platform/errors.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { assertTransition, type Machine, type Mover } from './machine.js';

/**
 * Payment states (docs/docs/state-machines.md), by how the money comes: cash, cheque and bank transfers
 * wait for staff approval; mobile money for the provider's verification; online card payments
 * for the provider's signed webhook (or expire unfinished). Settled states are final.
 */
export const TRANSACTION_STATES: Machine<TransactionStatus> = {
  PENDING_APPROVAL: { APPROVED: ['staff'], REJECTED: ['staff'] },
  PENDING_VERIFICATION: { VERIFIED: ['provider'], ERROR: ['provider', 'system'] },
  PENDING_PAYMENT: { APPROVED: ['provider'], CANCELLED: ['provider', 'system'], ERROR: ['provider'] },
  APPROVED: {},
  VERIFIED: {},
  CANCELLED: {},
  REJECTED: {},
  ERROR: {},
};

/** Where a new payment starts, by method. */
export function initialTransactionStatus(method: PaymentMethod): TransactionStatus {
  switch (method) {
    case 'ONLINE': return 'PENDING_PAYMENT';
    case 'MOBILE_MONEY': return 'PENDING_VERIFICATION';
    default: return 'PENDING_APPROVAL';
  }
}

/** Money confirmed received: it pays the invoice. */
export const CONFIRMED: readonly TransactionStatus[] = ['APPROVED', 'VERIFIED'];
/** Money recorded and awaiting staff or the provider. */
export const AWAITING: readonly TransactionStatus[] = ['PENDING_APPROVAL', 'PENDING_VERIFICATION'];
/** Money never received. */
export const FAILED: readonly TransactionStatus[] = ['REJECTED', 'CANCELLED', 'ERROR'];

export interface TransactionActor { by: Mover; id: string | null }

/** The notes of a payment's first state change, as a policy's: written with the payment (server/domain/money/payments.ts). */
export { INITIAL_STATE_NOTES } from './policy.js';

/**
 * Moves a payment if the machine allows it for this actor, only from the state the caller read
 * (two racing moves cannot both win), and records the change.
 */
export async function moveTransaction(scope: TransactionScope, payment: { id: string; transactionNo: string; status: TransactionStatus },
  to: TransactionStatus, actor: TransactionActor, at: Date, notes: string | null = null): Promise<void> {
  assertTransition(TRANSACTION_STATES, `Transaction ${payment.transactionNo}`, payment.status, to, actor.by);
  const moved = await scope.updateTable('transactions')
    .set({ status: to, updated_at: at, ...(FAILED.includes(to) || CONFIRMED.includes(to) ? { settled_at: at, checkout_url: null } : {}) })
    .where('id', '=', payment.id).where('status', '=', payment.status).executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw conflict(`Transaction ${payment.transactionNo} changed state meanwhile`, 'STATE_CHANGED');
  await scope.insertInto('transaction_state_changes', {
    transaction_id: payment.id, from_state: payment.status, to_state: to, actor_kind: actor.by, actor_id: actor.id, notes, created_at: at,
  }).execute();
}
