import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { toCents } from '../money/billing.js';
import { insurerOf } from '../products/visible.js';
import { checkRenewal, CLIENT_SELLS, preparePolicy, type PolicyCreateRequest, type PreparedPolicy, type Seller } from './issue.js';
import { breakdownOf } from './pricing.js';

export type Quote = components['schemas']['Quote'];

/**
 * Checks and prices a create body exactly as creating the policy would, writing nothing. A
 * renewal's old policy is checked too (the client's own, same type, not renewed yet: read only),
 * so a quote that answers 200 is a policy the client can create. `generateInvoice` is part of the
 * body but plays no part in the price.
 */
export async function quotePolicy(ctx: HandlerContext, clientId: string, body: PolicyCreateRequest, seller: Seller = CLIENT_SELLS): Promise<Quote> {
  const prepared = await preparePolicy(ctx, ctx.scope, clientId, body, 'body', seller);
  await checkRenewal(ctx.scope, body, clientId, prepared.root);
  return toQuote(prepared);
}

/** A prepared (checked and priced, unwritten) policy -> Quote. */
function toQuote({ body, product, exchangeRate, assets, rating, columns, now }: PreparedPolicy): Quote {
  return {
    policyType: body.policyType,
    product: {
      id: product.id, name: product.name, code: product.code, category: product.category as Quote['product']['category'],
      insurer: insurerOf(product),
    },
    currency: body.currency,
    exchangeRate,
    startDate: body.startDate,
    endDate: body.endDate,
    termDays: rating.termDays,
    sumInsured: columns.sum_insured === null ? null : Number(columns.sum_insured),
    premium: rating.premium.toNumber(),
    convertedPremium: toCents(rating.premium.mul(exchangeRate)).toNumber(),
    assets: assets.map((asset, position) => ({
      position,
      sumInsured: typeof asset.sumInsured === 'number' ? asset.sumInsured : null,
      premium: rating.assetPremiums[position].toNumber(),
      description: typeof asset.description === 'string' ? asset.description : null,
    })),
    premiumBreakdown: breakdownOf(rating, body.currency),
    quotedAt: now.toISOString(),
  };
}
