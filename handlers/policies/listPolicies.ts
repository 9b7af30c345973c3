import { sql } from 'kysely';
import { listOrExport } from '../../server/platform/export/listing.js';
import type { Column } from '../../server/platform/export/xlsx.js';
import { badRequest } from '../../server/platform/errors.js';
import { clientId } from '../../server/platform/actor.js';
import { containsPattern, isoDate } from '../../server/platform/filters.js';
import type { Handler, HandlerRequest } from '../types.js';
import { assetsOf, policyQuery, toPolicy, withPolicyColumns, type Policy, type PolicyAsset } from '../../server/domain/policies/view.js';

type Query = HandlerRequest<'listPolicies'>['query'];


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
  if (query.format === 'excel' && query.usePagination !== undefined && query.assets === undefined) {
    throw badRequest('query.assets is required with format=excel');
  }
  const withAssets = query.assets ?? false;
  const matching = filtered(ctx.scope, clientId(ctx), query);
  return listOrExport({
    query, matching, columns: withPolicyColumns(matching), table: 'policies', noun: 'policies',
    toItems: async (rows) => {
      const assets = withAssets ? await assetsOf(ctx.scope, rows.map((row) => row.id)) : undefined;
      return rows.map((row) => toPolicy(row, assets?.get(row.id)));
    },
    sheet: {
      name: 'Policies',
      filename: `policies-${ctx.clock.now().toISOString().slice(0, 10)}.xlsx`,
      columns: exportColumns(withAssets),
      rows: async (policies) => policies.flatMap((policy): ExportRow[] => (withAssets
        ? policy.assets!.map((asset) => ({ policy, asset }))
        : [{ policy, asset: null }])),
    },
  });
};

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
