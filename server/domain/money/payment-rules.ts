import { Decimal } from 'decimal.js';
import { ApiError, forbidden } from '../../platform/errors.js';
import type { TransactionStatus } from '../../platform/db/schema.js';
import { toCents } from './billing.js';

/**
 * What a payment taken through the API may be: the amount asked (to the cent), or the rest when
 * none is; never more than is left to pay, so an invoice is never overpaid by a payment taken here
 * (422 `AMOUNT_EXCEEDS_BALANCE`, naming what is left).
 */
export function paymentAmount(invoice: { currency: string; invoice_no: string }, remaining: Decimal, asked: Decimal.Value | undefined): Decimal {
  const amount = asked ? toCents(asked) : remaining;
  if (amount.greaterThan(remaining)) {
    throw new ApiError(422, 'AMOUNT_EXCEEDS_BALANCE',
      `body.amount ${amount.toFixed(2)} is more than the ${invoice.currency} ${remaining.toFixed(2)} left to pay on invoice ${invoice.invoice_no}`);
  }
  return amount;
}

/** Four eyes: whoever recorded a payment for a client may not approve it (403 `OWN_PAYMENT`); rejecting it is anyone's within reach. */
export function assertNotOwnPayment(payment: { transaction_no: string; created_by_staff_id: string | null }, to: TransactionStatus, staffId: string) {
  if (to === 'APPROVED' && payment.created_by_staff_id === staffId) {
    throw forbidden(`You recorded payment ${payment.transaction_no} yourself; another supervisor must approve it`, 'OWN_PAYMENT');
  }
}

/**
 * Four eyes over the way in: the staff member who opened the paying client's account (they chose
 * the e-mail or phone its set-up code went to, or before 1.2 its password) or who last set its
 * credentials (`credentials_set_by_staff_id`) could sign in as the client and pay, so they may not
 * approve its payments (403 `CREDENTIALS_SET_BY_APPROVER`). The client's own later changes do not
 * lift it: whoever held the way in could have made them.
 */
export function assertNotCredentialSetter(payment: { transaction_no: string }, client: { created_by_staff_id: string | null; credentials_set_by_staff_id: string | null },
  to: TransactionStatus, staffId: string) {
  if (to !== 'APPROVED') return;
  if (client.created_by_staff_id === staffId) {
    throw forbidden(`You opened the account of the client paying ${payment.transaction_no} (you chose where its set-up code went); another supervisor must approve it`,
      'CREDENTIALS_SET_BY_APPROVER');
  }
  if (client.credentials_set_by_staff_id === staffId) {
    throw forbidden(`You last set the credentials of the client paying ${payment.transaction_no}; another supervisor must approve it`, 'CREDENTIALS_SET_BY_APPROVER');
  }
}
