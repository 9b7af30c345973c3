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
