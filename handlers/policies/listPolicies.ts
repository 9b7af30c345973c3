import { sql } from 'kysely';
import { streamWorkbook, type Column } from '../../server/export/xlsx.js';
import { badRequest } from '../../server/errors.js';
import { pageOf, paginate } from '../../server/pagination.js';
import { clientId } from '../auth/session.js';
import { containsPattern, isoDate } from '../lookups/filters.js';
import type { Handler, HandlerRequest } from '../types.js';
import { assetsOf, policyQuery, toPolicy, withPolicyColumns, type Policy, type PolicyAsset } from './view.js';

type Query = HandlerRequest<'listPolicies'>['query'];

/** At most this many rows answer one unpaged JSON list; an export has no limit. */
const UNPAGED_LIMIT = 10_000;
const EXPORT_BATCH = 1_000;

function dateRange(values: string[] | undefined, name: string): [string, string | undefined] | undefined {
  if (!values) return undefined;
  const [from, to] = values.map((value, i) => isoDate(value, `query.${name}[${i}]`));
  if (to !== undefined && to < from) throw badRequest(`query.${name}[1] must not be before query.${name}[0]`);
  return [from, to];
}

/** The client's policies matching every filter given (unordered, unpaged). */
function filtered(scope: Parameters<typeof policyQuery>[0], owner: string, query: Query) {
  const starts = dateRange(query['startDate[]'], 'startDate');
  const ends = dateRange(query['endDate[]'], 'endDate');
  const clientName = sql`coalesce(client.company_name, concat_ws(' ', client.first_name, client.other_names, client.last_name))`;
  return policyQuery(scope)
    .where('policies.client_id', '=', owner)
    .$if(query.clientId !== undefined, (qb) => qb.where('policies.client_id', '=', query.clientId!))
    .$if(query.staffId !== undefined, (qb) => qb.where('policies.originating_staff_id', '=', query.staffId!))
    // Staff names live with staff accounts; a policy with no originating staff matches no name.
    .$if(query.staffName !== undefined, (qb) => qb.where('policies.originating_staff_id', 'is not', null).where(sql<boolean>`false`))
    .$if(query.policyNo !== undefined, (qb) => qb.where('policies.policy_no', 'ilike', containsPattern(query.policyNo!)))
    .$if(query.clientName !== undefined, (qb) => qb.where(sql<boolean>`${clientName} ilike ${containsPattern(query.clientName!)}`))
    .$if(query.insurerName !== undefined, (qb) => qb.where('insurer.name', 'ilike', containsPattern(query.insurerName!)))
    .$if(query.productName !== undefined, (qb) => qb.where('product.name', 'ilike', containsPattern(query.productName!)))
    .$if(query.productId !== undefined, (qb) => qb.where('policies.product_id', '=', query.productId!))
    .$if(query.state !== undefined, (qb) => qb.where('policies.state', '=', query.state!))
    .$if(starts !== undefined, (qb) => qb.where('policies.start_date', '>=', starts![0]))
    .$if(starts?.[1] !== undefined, (qb) => qb.where('policies.start_date', '<=', starts![1]!))
    .$if(ends !== undefined, (qb) => qb.where('policies.end_date', '>=', ends![0]))
    .$if(ends?.[1] !== undefined, (qb) => qb.where('policies.end_date', '<=', ends![1]!));
}

/**
 * The signed-in client's policies, newest first: a page, every row (`usePagination=false`), or
 * an .xlsx export of either (`format=excel`, one row per policy or per asset).
 */
export const listPolicies: Handler<'listPolicies'> = async (ctx, req) => {
  const query = req.query;
  if (query.format === 'excel') {
    if (query.usePagination === undefined) throw badRequest('query.usePagination is required with format=excel');
    if (query.assets === undefined) throw badRequest('query.assets is required with format=excel');
  }
  const usePagination = query.usePagination ?? true;
  const withAssets = query.assets ?? false;
  const owner = clientId(ctx);
  const matching = filtered(ctx.scope, owner, query);

  if (query.format === 'excel') {
    const page = usePagination ? { offset: (query.page! - 1) * query.limit!, limit: query.limit! } : { offset: 0, limit: Infinity };
    const batches = async function* () {
      for await (const rows of exportBatches(matching, page)) {
        const policies = rows.map((row) => toPolicy(row));
        if (!withAssets) { yield policies.map((policy) => ({ policy, asset: null })); continue; }
        const assets = await assetsOf(ctx.scope, rows.map((row) => row.id));
        yield policies.flatMap((policy) => assets.get(policy.id)!.map((asset) => ({ policy, asset })));
      }
    };
    const date = ctx.clock.now().toISOString().slice(0, 10);
    return streamWorkbook('Policies', `policies-${date}.xlsx`, exportColumns(withAssets), batches());
  }

  const { itemsCount } = (await pageOf(matching, 1, 1)).paginator;
  const page = usePagination ? query.page! : 1;
  const limit = usePagination ? query.limit! : Math.max(itemsCount, 1);
  const { offset, paginator } = paginate({ page, limit, itemsCount });
  if (!usePagination && itemsCount > UNPAGED_LIMIT) {
    throw badRequest(`query.usePagination=false would answer ${itemsCount} policies (at most ${UNPAGED_LIMIT}); page through them or export with format=excel`);
  }
  const rows = await newestFirst(matching).limit(limit).offset(offset).execute();
  const assets = withAssets ? await assetsOf(ctx.scope, rows.map((row) => row.id)) : undefined;
  return { data: rows.map((row) => toPolicy(row, assets?.get(row.id))), paginator };
};

/** Every Policy column, newest first (the id breaks ties). */
function newestFirst(matching: ReturnType<typeof filtered>) {
  return withPolicyColumns(matching).orderBy('policies.created_at', 'desc').orderBy('policies.id', 'desc');
}

/**
 * The export's rows, newest first, EXPORT_BATCH at a time: each batch starts after the last row of
 * the one before (keyset), so every query reads one batch whatever the depth, where an OFFSET would
 * re-read every row before it. The key is the exact stored `created_at` (as text: a JS Date drops
 * its microseconds) and the id. Only a page's start (`offset`) is skipped by counting.
 */
async function* exportBatches(matching: ReturnType<typeof filtered>, { offset, limit }: { offset: number; limit: number }) {
  let after: { createdAt: string; id: string } | undefined;
  for (let done = 0; done < limit;) {
    const want = Math.min(EXPORT_BATCH, limit - done);
    const rows = await newestFirst(matching)
      .select(sql<string>`policies.created_at::text`.as('created_at_key'))
      .$if(after !== undefined, (qb) => qb.where(sql<boolean>`(policies.created_at, policies.id) < (${after!.createdAt}::timestamptz, ${after!.id}::uuid)`))
      .$if(after === undefined && offset > 0, (qb) => qb.offset(offset))
      .limit(want)
      .execute();
    if (rows.length > 0) yield rows;
    if (rows.length < want) return;
    done += rows.length;
    const last = rows[rows.length - 1];
    after = { createdAt: last.created_at_key, id: last.id };
  }
}

interface ExportRow { policy: Policy; asset: PolicyAsset | null }

const ASSET_LABELS = ['registrationNo', 'make', 'model', 'location', 'name', 'description'] as const;

function exportColumns(withAssets: boolean): Column<ExportRow>[] {
  const columns: Column<ExportRow>[] = [
    { header: 'Policy No', value: (r) => r.policy.policyNo },
    { header: 'Policy type', value: (r) => r.policy.policyType },
    { header: 'State', value: (r) => r.policy.state },
    { header: 'Client', width: 28, value: (r) => r.policy.client.fullName },
    { header: 'Product', width: 28, value: (r) => r.policy.product.name },
    { header: 'Insurer', width: 30, value: (r) => r.policy.product.insurer.name },
    { header: 'Business type', value: (r) => r.policy.businessType },
    { header: 'Start date', value: (r) => r.policy.startDate },
    { header: 'End date', value: (r) => r.policy.endDate },
    { header: 'Currency', value: (r) => r.policy.currency },
    { header: 'Premium', value: (r) => r.policy.premium },
    { header: 'Sum insured', value: (r) => r.policy.sumInsured },
    { header: 'Invoice No', value: (r) => r.policy.invoice?.invoiceNo ?? null },
    { header: 'Created at', width: 24, value: (r) => r.policy.createdAt },
  ];
  if (!withAssets) return columns;
  return [
    ...columns,
    { header: 'Asset id', width: 38, value: (r) => r.asset?.id ?? null },
    { header: 'Asset', width: 30, value: (r) => ASSET_LABELS.map((key) => r.asset?.[key]).find((v) => typeof v === 'string') as string ?? null },
    { header: 'Asset sum insured', value: (r) => (typeof r.asset?.sumInsured === 'number' ? r.asset.sumInsured : null) },
    { header: 'Asset premium', value: (r) => r.asset?.premium ?? null },
  ];
}
