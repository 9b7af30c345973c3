import { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import type { components } from '../../../generated/api.js';
import { compiledQuery } from '../../platform/db/compiled-query.js';
import { TenantScope } from '../../platform/tenancy.js';
import { notFound } from '../../platform/errors.js';
import { clientFullName } from '../clients/account.js';
import { staffReference } from '../staff/names.js';
import { insurerOf } from '../products/visible.js';
import { POLICY_TYPES } from './types-catalogue.js';
import { ownRow } from '../../platform/ownership.js';

export type Policy = components['schemas']['Policy'];
export type PolicyAsset = components['schemas']['PolicyAsset'];

/** Statuses of money that was never received: a policy with only these is unpaid. */
export const UNPAID_STATUSES = ['REJECTED', 'CANCELLED', 'ERROR'] as const;

/**
 * The tenant's policies with what a Policy shows beside its own columns: client, product and its
 * insurer, the invoice, and whether anything was paid. Callers add the client filter.
 */
export function policyQuery(scope: TenantScope) {
  return scope.selectFrom('policies')
    .innerJoin('clients as client', 'client.id', 'policies.client_id')
    .innerJoin('products as product', 'product.id', 'policies.product_id')
    .innerJoin('companies as insurer', 'insurer.id', 'product.insurer_id')
    // The invoice billing it: its own, or a cart checkout's invoice billing it with others.
    .leftJoin('invoice_items as billed', (join) => join.onRef('billed.policy_id', '=', 'policies.id').onRef('billed.tenant_id', '=', 'policies.tenant_id'))
    .leftJoin('invoices as invoice', (join) => join.onRef('invoice.id', '=', 'billed.invoice_id').onRef('invoice.tenant_id', '=', 'billed.tenant_id'))
    // Who created it and who is credited with the sale, when staff did.
    .leftJoin('staff as creator', 'creator.id', 'policies.created_by_staff_id')
    .leftJoin('staff as originator', 'originator.id', 'policies.originating_staff_id');
}

export const policyColumns = [
  'policies.id', 'policies.policy_no', 'policies.policy_type', 'policies.state', 'policies.coverage_type', 'policies.cover_type',
  'policies.business_type', 'policies.business_category', 'policies.currency', 'policies.exchange_rate', 'policies.premium',
  'policies.sum_insured', 'policies.fleet_discount_rate', 'policies.premium_breakdown', 'policies.start_date', 'policies.end_date',
  'policies.generate_invoice', 'policies.old_policy_id', 'policies.notes', 'policies.description', 'policies.additional_information',
  'policies.group_id', 'policies.created_by_staff_id', 'policies.originating_staff_id', 'policies.created_at', 'policies.updated_at',
  'policies.product_id', 'policies.client_id',
  'client.type as client_type', 'client.first_name as client_first_name', 'client.other_names as client_other_names',
  'client.last_name as client_last_name', 'client.company_name as client_company_name', 'client.email as client_email',
  'client.phone_number as client_phone_number',
  'product.name as product_name', 'product.code as product_code', 'product.category as product_category',
  'product.premium_rates as product_premium_rates', 'product.status as product_status', 'product.distribution as product_distribution',
  'product.sub_category as product_sub_category',
  'insurer.id as insurer_id', 'insurer.name as insurer_name', 'insurer.type as insurer_type', 'insurer.kind as insurer_kind',
  'insurer.short_name as insurer_short_name', 'insurer.primary_color as insurer_primary_color',
  'invoice.id as invoice_id', 'invoice.invoice_no', 'invoice.amount as invoice_amount', 'invoice.converted_amount as invoice_converted_amount',
  'invoice.exchange_rate as invoice_exchange_rate', 'invoice.currency as invoice_currency', 'invoice.invoice_date',
  'creator.first_name as creator_first_name', 'creator.other_names as creator_other_names', 'creator.last_name as creator_last_name',
  'creator.email as creator_email',
  'originator.first_name as originator_first_name', 'originator.other_names as originator_other_names',
  'originator.last_name as originator_last_name', 'originator.email as originator_email',
] as const;

type PolicyQuery = ReturnType<typeof policyQuery>;

/**
 * Adds every column a Policy needs (and whether anything was paid) to a filtered policy query.
 * Whether paid is a lateral join reading at most one payment through the invoice's index, row by
 * row, so a page pays for its own rows only: as an EXISTS column, PostgreSQL hashed every payment
 * of the database once per list query (a sequential scan of `transactions`, 20 ms at 100,000).
 */
export function withPolicyColumns(query: PolicyQuery) {
  return query
    .leftJoinLateral((eb) => eb.selectFrom('transactions').select(sql<number>`1`.as('one'))
      .whereRef('transactions.invoice_id', '=', 'invoice.id')
      .whereRef('transactions.tenant_id', '=', 'policies.tenant_id')
      .where('transactions.status', 'not in', UNPAID_STATUSES)
      .limit(1)
      .as('payment'), (join) => join.onTrue())
    .select(policyColumns)
    .select(sql<boolean>`payment.one is not null`.as('is_paid'));
}
export type PolicyRow = Awaited<ReturnType<ReturnType<typeof withPolicyColumns>['executeTakeFirstOrThrow']>>;

const num = (value: string | number) => Number(value);
const numOrNull = (value: string | number | null) => (value === null ? null : Number(value));

/** Row (and, when asked, its assets) -> Policy. */
export function toPolicy(row: PolicyRow, assets?: PolicyAsset[]): Policy {
  return {
    id: row.id,
    policyNo: row.policy_no,
    policyType: row.policy_type as Policy['policyType'],
    state: row.state,
    coverageType: row.coverage_type,
    coverType: row.cover_type,
    businessType: row.business_type,
    businessCategory: row.business_category,
    currency: row.currency,
    exchangeRate: num(row.exchange_rate),
    premium: num(row.premium),
    convertedPremium: new Decimal(row.premium).mul(row.exchange_rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber(),
    sumInsured: numOrNull(row.sum_insured),
    startDate: row.start_date,
    endDate: row.end_date,
    generateInvoice: row.generate_invoice,
    oldPolicyId: row.old_policy_id,
    notes: row.notes,
    description: row.description,
    additionalInformation: row.additional_information as Policy['additionalInformation'],
    groupId: row.group_id,
    fleetDiscountRate: numOrNull(row.fleet_discount_rate),
    client: {
      id: row.client_id,
      type: row.client_type,
      fullName: clientFullName({ type: row.client_type, first_name: row.client_first_name, other_names: row.client_other_names,
        last_name: row.client_last_name, company_name: row.client_company_name }),
      email: row.client_email,
      phoneNumber: row.client_phone_number,
    },
    product: {
      id: row.product_id,
      name: row.product_name,
      code: row.product_code,
      category: row.product_category as Policy['product']['category'],
      insurer: insurerOf(row),
    },
    createdBy: staffNamed(row.created_by_staff_id, row.creator_first_name, row.creator_other_names, row.creator_last_name, row.creator_email),
    originatingStaff: staffNamed(row.originating_staff_id, row.originator_first_name, row.originator_other_names,
      row.originator_last_name, row.originator_email),
    invoice: row.invoice_id === null ? null : {
      id: row.invoice_id,
      invoiceNo: row.invoice_no!,
      currency: row.invoice_currency!,
      exchangeRate: num(row.invoice_exchange_rate!),
      amount: num(row.invoice_amount!),
      convertedAmount: num(row.invoice_converted_amount!),
      invoiceDate: row.invoice_date!,
    },
    isPaid: Boolean(row.is_paid),
    premiumBreakdown: row.premium_breakdown as Policy['premiumBreakdown'],
    ...(assets ? { assets: shownAssets(row, assets) } : {}),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** A staff member as a policy names them, or null when no staff member is named. */
function staffNamed(id: string | null, first: string | null, other: string | null, last: string | null, email: string | null): Policy['createdBy'] {
  return id === null ? null : staffReference({ id, first_name: first ?? '', other_names: other, last_name: last ?? '', email: email ?? '' });
}

/**
 * The assets as the API shows them. A GenericAsset without a cover type of its own shows the
 * policy's, else the product's (its sub-category, else its category). It is worked out on reading,
 * not stored, so the asset follows the policy's cover type when that changes.
 */
function shownAssets(row: PolicyRow, assets: PolicyAsset[]): PolicyAsset[] {
  if (POLICY_TYPES[row.policy_type as Policy['policyType']].assetSchema !== 'GenericAsset') return assets;
  const coverType = row.cover_type ?? row.product_sub_category ?? row.product_category;
  return assets.map((asset) => (asset.coverType === undefined ? { ...asset, coverType } : asset));
}

/** The assets of some policies, in order, keyed by policy id (as stored: what was sent, with its defaults). */
export async function assetsOf(scope: TenantScope, policyIds: string[]): Promise<Map<string, PolicyAsset[]>> {
  const byPolicy = new Map<string, PolicyAsset[]>(policyIds.map((id) => [id, []]));
  if (policyIds.length === 0) return byPolicy;
  const rows = await scope.selectFrom('policy_assets').select(['id', 'policy_id', 'details', 'premium'])
    .where('policy_id', 'in', policyIds).orderBy('policy_id').orderBy('position').execute();
  for (const row of rows) byPolicy.get(row.policy_id)!.push({ ...row.details, id: row.id, premium: Number(row.premium) });
  return byPolicy;
}

/**
 * The signed-in client's policy with this id, or 404 (another client's or tenant's id included).
 * `lock` takes the policy row's lock until the transaction ends (changes and deletes).
 */
export const ownPolicyRow = (scope: TenantScope, id: string, clientId: string, options: { lock?: boolean } = {}): Promise<PolicyRow> =>
  ownRow(withPolicyColumns(policyQuery(scope).where('policies.client_id', '=', clientId)), 'policies', id, 'Policy', options);

/**
 * A policy of the company as staff read it (`GET /staff/policies/{id}`, reach aside), with its
 * assets: its events' `data.object`, and what an update compares to say what changed.
 */
export async function companyPolicy(scope: TenantScope, id: string): Promise<Policy> {
  const row = await withAssetsColumn(withPolicyColumns(policyQuery(scope).where('policies.id', '=', id))).executeTakeFirstOrThrow();
  return toPolicyWithAssets(row);
}

/** A stored policy's assets as a caller would send them again (no ids, no prices), to price anew. */
export async function assetsToReprice(scope: TenantScope, policyId: string): Promise<Record<string, unknown>[]> {
  return (await assetsOf(scope, [policyId])).get(policyId)!.map(({ id: _id, premium: _premium, ...asset }) => asset);
}

/** A policy query's assets as one JSON column of its own row, in order (as `assetsOf` reads them, without a second query). */
function withAssetsColumn<Q extends ReturnType<typeof withPolicyColumns>>(query: Q) {
  return query.select(sql<{ id: string; details: Record<string, unknown>; premium: number | string }[]>`(select coalesce(json_agg(
      json_build_object('id', pa.id, 'details', pa.details, 'premium', pa.premium) order by pa.position), '[]'::json)
    from policy_assets pa where pa.policy_id = policies.id and pa.tenant_id = policies.tenant_id)`.as('assets_json'));
}

/** A client's policy by id with its assets, as the API answers it: built once (the client's read by id is a hot path). */
const clientPolicyById = compiledQuery((db, params: { tenantId: string; clientId: string; id: string }) =>
  withAssetsColumn(withPolicyColumns(policyQuery(new TenantScope(db, params.tenantId)).where('policies.client_id', '=', params.clientId)))
    .where('policies.id', '=', params.id));

/** One policy as the API answers it, with its assets: one query. */
export async function loadPolicy(scope: TenantScope, id: string, clientId: string): Promise<Policy> {
  const [row] = await clientPolicyById(scope.db, { tenantId: scope.tenantId, clientId, id });
  if (!row) throw notFound('Policy');
  return toPolicyWithAssets(row);
}

/** A row read with its assets column (`withAssetsColumn`) -> Policy. */
function toPolicyWithAssets(row: PolicyRow & { assets_json: { id: string; details: Record<string, unknown>; premium: number | string }[] }): Policy {
  return toPolicy(row, row.assets_json.map(({ details, id: assetId, premium }) => ({ ...details, id: assetId, premium: Number(premium) }) as PolicyAsset));
}

export type PolicySummary = import('../../../generated/api.js').components['schemas']['PolicySummary'];

/** The client's policies in short (PolicySummary), for the account and the mini-statement. Callers add filters and order. */
export function policySummaries(scope: TenantScope, clientId: string) {
  return scope.selectFrom('policies')
    .innerJoin('products as product', 'product.id', 'policies.product_id')
    .where('policies.client_id', '=', clientId)
    .select(['policies.id', 'policies.policy_no', 'policies.policy_type', 'policies.state', 'product.name as product_name',
      'policies.currency', 'policies.premium', 'policies.start_date', 'policies.end_date']);
}

export function toPolicySummary(row: Awaited<ReturnType<ReturnType<typeof policySummaries>['executeTakeFirstOrThrow']>>): PolicySummary {
  return {
    id: row.id, policyNo: row.policy_no, policyType: row.policy_type as PolicySummary['policyType'], state: row.state,
    productName: row.product_name, currency: row.currency, premium: Number(row.premium), startDate: row.start_date, endDate: row.end_date,
  };
}

/** Some of the client's policies as the API answers them, with their assets, in the order of `ids`. */
export async function loadPolicies(scope: TenantScope, ids: string[], clientId: string): Promise<Policy[]> {
  if (ids.length === 0) return [];
  const rows = await withPolicyColumns(policyQuery(scope).where('policies.id', 'in', ids).where('policies.client_id', '=', clientId)).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const assets = await assetsOf(scope, ids);
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound('Policy');
    return toPolicy(row, assets.get(id));
  });
}
