import { staffActor } from '../../server/platform/actor.js';
import { staffPaymentReceipt } from '../../server/domain/read-models/receipts/receipt.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The receipt of a confirmed payment of a client within the caller's reach, the client's very PDF. */
export const downloadStaffReceipt: Handler<'downloadStaffReceipt'> = async (ctx, req) => {
  const receipt = await staffPaymentReceipt(ctx, staffActor(ctx), req.params.id);
  return {
    kind: 'file',
    body: receipt.pdf,
    contentType: 'application/pdf',
    filename: `receipt-${receipt.receiptNo}.pdf`,
    disposition: 'attachment',
    headers: { 'cache-control': 'private, no-store' },
  };
};
