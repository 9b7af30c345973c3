import { Decimal } from 'decimal.js';
import { ApiError, badRequest, conflict } from '../../server/platform/errors.js';
import { raiseInvoice, type BilledPolicy } from '../../server/domain/money/billing.js';
import { notifyClient } from '../../server/domain/clients/notifications.js';
import { clientId } from '../../server/platform/actor.js';
import { writePolicy, type PreparedPolicy } from '../../server/domain/policies/issue.js';
import { loadPolicies } from '../../server/domain/policies/view.js';
import type { Handler } from '../types.js';
import { cartItemColumns, itemRoot, prepareItem } from '../../server/domain/cart/items.js';

/**
 * Buys the signed-in client's cart (or the items named in `itemIds`) in one transaction: the
 * items are locked, each checked as a create body of its policy type and priced (nothing is
 * written until every item passes), then each becomes a `PROCESSING` policy through the policy
 * engine, one invoice bills them all, the items leave the cart and the client is told once. Any
 * failure rolls everything back: no policy, no invoice, the cart as it was.
 */
export const checkoutCart: Handler<'checkoutCart'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const wanted = req.body?.itemIds ? [...new Set(req.body.itemIds)] : undefined;

  const { policyIds, invoiceId } = await ctx.scope.transaction(async (scope) => {
    // Locked for the transaction: a concurrent checkout waits, then finds them gone.
    const rows = await scope.selectFrom('cart_items').select(cartItemColumns)
      .where('client_id', '=', owner)
      .$if(wanted !== undefined, (qb) => qb.where('id', 'in', wanted!))
      .orderBy('created_at').orderBy('id')
      .forUpdate()
      .execute();
    const missing = wanted?.find((id) => !rows.some((row) => row.id === id));
    if (missing) throw new ApiError(404, 'NOT_FOUND', `Cart item ${missing} not found`);
    if (rows.length === 0) throw conflict('The cart is empty: add items with POST /client/cart first', 'CART_EMPTY');

    const prepared: PreparedPolicy[] = [];
    for (const row of rows) prepared.push(await prepareItem(ctx, scope, owner, row));
    // One invoice has one currency and one exchange rate.
    const [first] = prepared;
    for (const [i, item] of prepared.entries()) {
      if (item.body.currency !== first.body.currency || item.exchangeRate !== first.exchangeRate) {
        throw badRequest(`${itemRoot(rows[i].id)} is in ${item.body.currency} at ${item.exchangeRate}, ${itemRoot(rows[0].id)} in `
          + `${first.body.currency} at ${first.exchangeRate}: one invoice has one currency and exchange rate, so check them out separately (itemIds)`,
        'MIXED_CURRENCIES');
      }
    }

    const billed: BilledPolicy[] = [];
    for (const item of prepared) billed.push(await writePolicy(ctx, scope, owner, item, { ownInvoice: false, notify: false }));
    const now = ctx.clock.now();
    const invoice = await raiseInvoice(scope, {
      clientId: owner, currency: first.body.currency, exchangeRate: first.exchangeRate, policies: billed,
    }, first.today.date, now);
    await scope.deleteFrom('cart_items').where('client_id', '=', owner).where('id', 'in', rows.map((row) => row.id)).execute();

    const numbers = billed.map((policy) => policy.policyNo).join(', ');
    const amount = billed.reduce((sum, policy) => sum.plus(policy.premium), new Decimal(0));
    await notifyClient(ctx, scope, owner, {
      title: billed.length === 1 ? `Policy ${numbers} created` : `Policies ${numbers} created`,
      body: `Your cart checkout created ${billed.length === 1 ? `policy ${numbers}` : `${billed.length} policies (${numbers})`}; `
        + `invoice ${invoice.invoice_no} bills ${first.body.currency} ${amount.toFixed(2)}. Pay it to activate ${billed.length === 1 ? 'it' : 'them'}.`,
      entity: { name: 'invoice', id: invoice.id },
    });
    return { policyIds: billed.map((policy) => policy.id), invoiceId: invoice.id };
  });

  const policies = await loadPolicies(ctx.scope, policyIds, owner);
  const invoice = await ctx.scope.selectFrom('invoices')
    .select(['id', 'invoice_no', 'description', 'currency', 'exchange_rate', 'amount', 'converted_amount', 'invoice_date'])
    .where('id', '=', invoiceId).where('client_id', '=', owner).executeTakeFirstOrThrow();
  const items = await ctx.scope.selectFrom('invoice_items').select(['policy_id', 'amount']).where('invoice_id', '=', invoiceId).execute();
  const amountOf = new Map(items.map((item) => [item.policy_id, Number(item.amount)]));
  return {
    data: {
      policies,
      invoice: {
        id: invoice.id,
        invoiceNo: invoice.invoice_no,
        description: invoice.description ?? '',
        currency: invoice.currency,
        exchangeRate: Number(invoice.exchange_rate),
        amount: Number(invoice.amount),
        convertedAmount: Number(invoice.converted_amount),
        invoiceDate: invoice.invoice_date,
        items: policies.map((policy) => ({ policyId: policy.id, policyNo: policy.policyNo, amount: amountOf.get(policy.id)! })),
      },
    },
  };
};
