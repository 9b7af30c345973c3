import type { Handler } from '../types.js';
import { visibleProducts } from '../../server/domain/products/visible.js';
import { POLICY_TYPES } from '../../server/domain/policies/types-catalogue.js';

/** Every policy type, with its asset schema, its create call and how many products the client can buy. */
export const listPolicyTypes: Handler<'listPolicyTypes'> = async (ctx) => {
  const counts = await visibleProducts(ctx).select(['products.category']).select((eb) => eb.fn.countAll<string>().as('count'))
    .groupBy('products.category').execute();
  const available = new Map(counts.map((row) => [row.category, Number(row.count)]));
  const data = Object.entries(POLICY_TYPES).map(([policyType, info]) => ({
    policyType: policyType as keyof typeof POLICY_TYPES,
    name: info.name,
    assetSchema: info.assetSchema,
    createPath: info.createPath ?? '/client/policies',
    productCount: available.get(policyType) ?? 0,
  }));
  return { data };
};
