import { staffActor } from '../../server/platform/actor.js';
import { staffPaymentReceipt } from '../../server/domain/read-models/receipts/receipt.js';
import { privatePdfDownload } from '../../server/platform/files.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The receipt of a confirmed payment of a client within the caller's reach, the client's very PDF. */
export const downloadStaffReceipt: Handler<'downloadStaffReceipt'> = async (ctx, req) => {
  const receipt = await staffPaymentReceipt(ctx, staffActor(ctx), req.params.id);
  return privatePdfDownload(receipt.pdf, `receipt-${receipt.receiptNo}.pdf`);
};
