import { nextNumber } from '../../../platform/numbering.js';
import { CONFIRMED } from '../../states/transaction.js';
import type { TenantScope } from '../../../platform/tenancy.js';

/** A receipt's number in the tenant's RCT series, and when it was issued. */
export interface ReceiptNumber { receiptNo: string; issuedAt: Date }

/**
 * The receipt number of a confirmed payment: the one it has, or, the first time, the tenant's
 * next RCT number, stored with the issue time. The payment's row is locked before it is read, so
 * a concurrent caller waits and then reads the number this one stored: a payment never takes two
 * numbers, and a rolled-back caller gives its number back (the counter bump is in the same
 * transaction). Null when the payment is not confirmed money (no receipt for it).
 *
 * settlePayment calls it as the payment is confirmed; the receipt download calls it too, which
 * only matters for payments confirmed before receipts were numbered.
 */
export function issueReceipt(scope: TenantScope, transactionId: string, at: Date): Promise<ReceiptNumber | null> {
  return scope.transaction(async (trx) => {
    const row = await trx.selectFrom('transactions').select(['status', 'receipt_no', 'receipt_issued_at'])
      .where('id', '=', transactionId).forUpdate().executeTakeFirst();
    if (!row || !CONFIRMED.includes(row.status)) return null;
    if (row.receipt_no !== null) return { receiptNo: row.receipt_no, issuedAt: new Date(row.receipt_issued_at!) };
    const receiptNo = await nextNumber(trx, 'RCT');
    await trx.updateTable('transactions').set({ receipt_no: receiptNo, receipt_issued_at: at })
      .where('id', '=', transactionId).where('receipt_no', 'is', null).executeTakeFirstOrThrow();
    return { receiptNo, issuedAt: at };
  });
}
