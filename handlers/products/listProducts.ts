import { pageOf } from '../../server/platform/pagination.js';
import { containsPattern } from '../../server/platform/filters.js';
import type { Handler } from '../types.js';
import { nothing, productColumns, toProduct, visibleProducts } from '../../server/domain/products/visible.js';

/** The products a client can buy, by name, a page at a time, with the seed's filters. */
export const listProducts: Handler<'listProducts'> = async (ctx, req) => {
  const { category, name, subCategory, insurer, assigned, distribution } = req.query;
  const page = req.query.page!;
  const limit = req.query.limit!;
  const matching = visibleProducts(ctx)
    .$if(category !== undefined, (qb) => qb.where('products.category', '=', category!))
    .$if(name !== undefined, (qb) => qb.where('products.name', 'ilike', containsPattern(name!)))
    .$if(subCategory !== undefined, (qb) => qb.where('products.sub_category', '=', subCategory!))
    .$if(insurer !== undefined, (qb) => qb.where('products.insurer_id', '=', insurer!))
    .$if(assigned === true, (qb) => qb.where('assignment.tenant_id', 'is not', null))
    .$if(assigned === false, (qb) => qb.where('assignment.tenant_id', 'is', null))
    .$if(distribution === 'OFFLINE', (qb) => qb.where(nothing));

  const { offset, paginator } = await pageOf(matching, page, limit);
  const rows = await matching.select(productColumns).orderBy('products.name').orderBy('products.id').limit(limit).offset(offset).execute();
  return { data: rows.map(toProduct), paginator };
};
