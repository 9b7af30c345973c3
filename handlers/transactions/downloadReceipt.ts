import { clientId } from '../../server/platform/actor.js';
import { paymentReceipt } from '../../server/domain/read-models/receipts/receipt.js';
import type { Handler } from '../../server/platform/handler-types.js';

/** The official receipt of one of the signed-in client's confirmed payments, as a PDF download. */
export const downloadReceipt: Handler<'downloadReceipt'> = async (ctx, req) => {
  const receipt = await paymentReceipt(ctx, clientId(ctx), req.params.id);
  return {
    kind: 'file',
    body: receipt.pdf,
    contentType: 'application/pdf',
    filename: `receipt-${receipt.receiptNo}.pdf`,
    disposition: 'attachment',
    headers: { 'cache-control': 'private, no-store' },
  };
};
