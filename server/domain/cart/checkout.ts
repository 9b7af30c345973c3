import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { ApiError, badRequest, conflict } from '../../platform/errors.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { raiseInvoice, type BilledPolicy } from '../money/billing.js';
import { announcePolicy, CLIENT_SELLS, staffOf, writePolicy, type PreparedPolicy, type Seller } from '../policies/issue.js';
import { loadPolicies } from '../policies/view.js';
import type { StateActor } from '../states/policy.js';
import { cartItemColumns, itemRoot, prepareItem, type CartItemRow } from './items.js';
import { notifyClient } from '../accounts/notify.js';

export type CartCheckout = components['schemas']['CartCheckout'];

/**
 * Buys a client's cart (or the items named in `itemIds`) in one transaction: the items are
 * locked, each checked as a create body of its policy type and priced (nothing is written until
 * every item passes), then each becomes a `PROCESSING` policy through the policy engine, one
 * invoice bills them all (then each policy's `policy.created` is recorded), the items leave the
 * cart and the client is told once. Any failure rolls everything back: no policy, no invoice, no
 * event, the cart as it was. `actor` records who made the policies; `seller` is the client itself,
 * or staff buying the cart for it.
 */
export async function buyCart(
  ctx: HandlerContext, clientId: string, itemIds: string[] | undefined, actor: StateActor, seller: Seller = CLIENT_SELLS,
): Promise<CartCheckout> {
  const wanted = itemIds ? [...new Set(itemIds)] : undefined;
  const { policyIds, invoiceId } = await ctx.scope.transaction(async (scope) => {
    const rows = await lockedItems(scope, clientId, wanted);
    const prepared: PreparedPolicy[] = [];
    for (const row of rows) prepared.push(await prepareItem(ctx, scope, clientId, row, seller));
    assertOneCurrency(rows, prepared);

    const [first] = prepared;
    const billed: BilledPolicy[] = [];
    for (const item of prepared) billed.push(await writePolicy(ctx, scope, clientId, item, actor, { ownInvoice: false, notify: false }));
    const now = ctx.clock.now();
    const invoice = await raiseInvoice(ctx, scope, {
      clientId, currency: first.body.currency, exchangeRate: first.exchangeRate, policies: billed, createdByStaffId: staffOf(seller), actor,
    }, first.today.date, now);
    for (const [i, policy] of billed.entries()) await announcePolicy(ctx, scope, { id: policy.id, oldPolicyId: prepared[i].body.oldPolicyId }, actor, now);
    await scope.deleteFrom('cart_items').where('client_id', '=', clientId).where('id', 'in', rows.map((row) => row.id)).execute();
    await notifyCheckout(ctx, scope, clientId, billed, invoice, first.body.currency);
    return { policyIds: billed.map((policy) => policy.id), invoiceId: invoice.id };
  });
  return loadCheckout(ctx.scope, clientId, policyIds, invoiceId);
}

/** The items to buy, oldest first, locked for the transaction: a concurrent checkout waits, then finds them gone. */
async function lockedItems(scope: TenantScope, clientId: string, wanted: string[] | undefined): Promise<CartItemRow[]> {
  const rows = await scope.selectFrom('cart_items').select(cartItemColumns)
    .where('client_id', '=', clientId)
    .$if(wanted !== undefined, (qb) => qb.where('id', 'in', wanted!))
    .orderBy('created_at').orderBy('id')
    .forUpdate()
    .execute();
  const missing = wanted?.find((id) => !rows.some((row) => row.id === id));
  if (missing) throw new ApiError(404, 'NOT_FOUND', `Cart item ${missing} not found`);
  if (rows.length === 0) throw conflict('The cart is empty: add items with POST /client/cart first', 'CART_EMPTY');
  return rows;
}

/** One invoice has one currency and one exchange rate. */
function assertOneCurrency(rows: CartItemRow[], prepared: PreparedPolicy[]) {
  const [first] = prepared;
  for (const [i, item] of prepared.entries()) {
    if (item.body.currency !== first.body.currency || item.exchangeRate !== first.exchangeRate) {
      throw badRequest(`${itemRoot(rows[i].id)} is in ${item.body.currency} at ${item.exchangeRate}, ${itemRoot(rows[0].id)} in `
        + `${first.body.currency} at ${first.exchangeRate}: one invoice has one currency and exchange rate, so check them out separately (itemIds)`,
      'MIXED_CURRENCIES');
    }
  }
}

/** One notification for the whole checkout: the policies made and the invoice to pay. */
async function notifyCheckout(ctx: HandlerContext, scope: TransactionScope, clientId: string, billed: BilledPolicy[],
  invoice: { id: string; invoice_no: string }, currency: string) {
  const numbers = billed.map((policy) => policy.policyNo).join(', ');
  const amount = billed.reduce((sum, policy) => sum.plus(policy.premium), new Decimal(0));
  await notifyClient(ctx, scope, clientId, {
    title: billed.length === 1 ? `Policy ${numbers} created` : `Policies ${numbers} created`,
    body: `Your cart checkout created ${billed.length === 1 ? `policy ${numbers}` : `${billed.length} policies (${numbers})`}; `
      + `invoice ${invoice.invoice_no} bills ${currency} ${amount.toFixed(2)}. Pay it to activate ${billed.length === 1 ? 'it' : 'them'}.`,
    entity: { name: 'invoice', id: invoice.id },
  });
}

/** What a checkout answers: the policies it made, and the invoice billing them with each one's amount. */
async function loadCheckout(scope: TenantScope, clientId: string, policyIds: string[], invoiceId: string): Promise<CartCheckout> {
  const policies = await loadPolicies(scope, policyIds, clientId);
  const invoice = await scope.selectFrom('invoices')
    .select(['id', 'invoice_no', 'description', 'currency', 'exchange_rate', 'amount', 'converted_amount', 'invoice_date'])
    .where('id', '=', invoiceId).where('client_id', '=', clientId).executeTakeFirstOrThrow();
  const items = await scope.selectFrom('invoice_items').select(['policy_id', 'amount']).where('invoice_id', '=', invoiceId).execute();
  const amountOf = new Map(items.map((item) => [item.policy_id, Number(item.amount)]));
  return {
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
  };
}
