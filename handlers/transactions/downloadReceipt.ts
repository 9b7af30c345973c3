import { clientId } from '../../server/platform/actor.js';
import { paymentReceipt } from '../../server/domain/read-models/receipts/receipt.js';
import { privatePdfDownload } from '../../server/platform/files.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The official receipt of one of the signed-in client's confirmed payments, as a PDF download. */
export const downloadReceipt: Handler<'downloadReceipt'> = async (ctx, req) => {
  const receipt = await paymentReceipt(ctx, clientId(ctx), req.params.id);
  return privatePdfDownload(receipt.pdf, `receipt-${receipt.receiptNo}.pdf`);
};
