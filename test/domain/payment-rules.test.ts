import { Decimal } from 'decimal.js';
import { invoiceFigures, remainingToPay } from '../../server/domain/money/figures.js';
import { assertNotOwnPayment, paymentAmount } from '../../server/domain/money/payment-rules.js';
import { ApiError } from '../../server/platform/errors.js';

/**
 * The money rules of createTransaction, createStaffTransaction and approveTransaction stated
 * without a database: what is left to pay, what a payment may be, four eyes.
 */

const invoice = { currency: 'GHS', invoice_no: 'INV-0007' };
const sums = (confirmed: string, awaiting = '0', pendingCheckout = '0') =>
  ({ confirmed: new Decimal(confirmed), awaiting: new Decimal(awaiting), pendingCheckout: new Decimal(pendingCheckout) });
const refusal = (run: () => unknown) => {
  try { run(); } catch (error) { return { status: (error as ApiError).statusCode, code: (error as ApiError).code, message: (error as ApiError).message }; }
  return undefined;
};

describe('what is left to pay (remainingToPay)', () => {
  test('the amount less confirmed money, money awaiting staff or the provider, and open checkouts', () => {
    expect(remainingToPay('1000.00', sums('250.00', '100.50', '49.50')).toFixed(2)).toBe('600.00');
  });
  test('nothing once payments cover it, never below zero', () => {
    expect(remainingToPay('1000.00', sums('1000.00')).toFixed(2)).toBe('0.00');
    expect(remainingToPay('1000.00', sums('800.00', '300.00')).lessThanOrEqualTo(0)).toBe(true);
  });
  test('decimal to the cent: 0.1 + 0.2 of 0.30 leaves nothing (no float drift)', () => {
    expect(remainingToPay('0.30', sums('0.1', '0.2')).toFixed(2)).toBe('0.00');
  });
  test('the invoice figures agree: money awaiting counts as paid, only confirmed money decides the status', () => {
    const figures = invoiceFigures('1000.00', '1', sums('250.00', '750.00'));
    expect(figures).toMatchObject({ amountPaid: 1000, amountUnpaid: 0, amountApproved: 250, status: 'PARTIALLY_PAID', isClosed: false });
  });
});

describe('what a payment may be (paymentAmount)', () => {
  test('the rest when no amount is asked', () => {
    expect(paymentAmount(invoice, new Decimal('612.40'), undefined).toFixed(2)).toBe('612.40');
  });
  test('the amount asked, to the cent', () => {
    expect(paymentAmount(invoice, new Decimal('612.40'), 100.456).toFixed(2)).toBe('100.46');
    expect(paymentAmount(invoice, new Decimal('612.40'), '612.40').toFixed(2)).toBe('612.40');
  });
  test('more than is left is 422 AMOUNT_EXCEEDS_BALANCE, naming what is left', () => {
    expect(refusal(() => paymentAmount(invoice, new Decimal('612.40'), '612.41'))).toEqual({
      status: 422, code: 'AMOUNT_EXCEEDS_BALANCE', message: 'body.amount 612.41 is more than the GHS 612.40 left to pay on invoice INV-0007',
    });
  });
});

describe('four eyes (assertNotOwnPayment)', () => {
  const recordedBy = (staffId: string | null) => ({ transaction_no: 'TRX-0003', created_by_staff_id: staffId });
  test('the staff member who recorded a payment may not approve it: 403 OWN_PAYMENT', () => {
    expect(refusal(() => assertNotOwnPayment(recordedBy('staff-a'), 'APPROVED', 'staff-a'))).toMatchObject({ status: 403, code: 'OWN_PAYMENT' });
  });
  test('another supervisor may; a client\'s own payment has no recorder to refuse', () => {
    expect(refusal(() => assertNotOwnPayment(recordedBy('staff-a'), 'APPROVED', 'staff-b'))).toBeUndefined();
    expect(refusal(() => assertNotOwnPayment(recordedBy(null), 'APPROVED', 'staff-b'))).toBeUndefined();
  });
  test('the recorder may still reject their own', () => {
    expect(refusal(() => assertNotOwnPayment(recordedBy('staff-a'), 'REJECTED', 'staff-a'))).toBeUndefined();
  });
});
