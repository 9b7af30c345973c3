import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { DocumentRow } from '../../platform/db/schema.js';
import { toCents } from '../money/billing.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { toDocument, type Document } from '../documents/view.js';
import { ownRow } from '../../platform/ownership.js';
import { staffReferences, type StaffReference } from '../staff/names.js';

export type Claim = components['schemas']['Claim'];
export type ClaimSummary = components['schemas']['ClaimSummary'];
type ThirdPartyLoss = components['schemas']['ThirdPartyLoss'];
type ClaimStateChange = components['schemas']['ClaimStateChange'];

/** The company's claims joined to the policy (and its product) each is on. Callers narrow them to a client or a staff member's reach. */
export function companyClaims(scope: TenantScope) {
  return scope.selectFrom('claims')
    .innerJoin('policies as policy', (join) => join.onRef('policy.id', '=', 'claims.policy_id').onRef('policy.tenant_id', '=', 'claims.tenant_id'))
    .innerJoin('products as product', 'product.id', 'policy.product_id');
}

/** The client's claims joined to the policy (and its product) each is on. Callers add their filters. */
export const claimQuery = (scope: TenantScope, clientId: string) => companyClaims(scope).where('claims.client_id', '=', clientId);

export const claimColumns = [
  'claims.id', 'claims.claim_no', 'claims.client_id', 'claims.status', 'claims.stage', 'claims.policy_id', 'claims.claim_type', 'claims.date_of_loss',
  'claims.date_of_notification', 'claims.incident_location', 'claims.description', 'claims.loss_category', 'claims.estimated_loss_amount',
  'claims.currency', 'claims.exchange_rate', 'claims.created_at', 'claims.updated_at',
  'policy.policy_no', 'policy.policy_type', 'policy.state as policy_state', 'policy.currency as policy_currency',
  'policy.start_date as policy_start_date', 'policy.end_date as policy_end_date', 'product.name as product_name',
] as const;

/** The client's claims with every column a Claim shows from the claim and its policy. */
export const claimRows = (scope: TenantScope, clientId: string) => claimQuery(scope, clientId).select(claimColumns);
export type ClaimRow = Awaited<ReturnType<ReturnType<typeof claimRows>['executeTakeFirstOrThrow']>>;

/**
 * The signed-in client's claim with this id, or 404 (another client's or tenant's id included).
 * `lock` holds the claim's row until the transaction ends, so staff cannot start on it between
 * the check and the change.
 */
export const ownClaim = (scope: TenantScope, id: string, clientId: string, options: { lock?: boolean } = {}): Promise<ClaimRow> =>
  ownRow(claimRows(scope, clientId), 'claims', id, 'Claim', options);

const iso = (value: Date | string) => new Date(value).toISOString();
const numberOrNull = (value: string | null) => (value === null ? null : Number(value));

/** Rows of a child table for some claims, grouped by claim id in the order read. */
function byClaim<R extends { claim_id: string }>(claimIds: string[], rows: R[]): Map<string, R[]> {
  const grouped = new Map<string, R[]>(claimIds.map((id) => [id, []]));
  for (const row of rows) grouped.get(row.claim_id)!.push(row);
  return grouped;
}

/** Documents by id, for the documents claims, reviews and settlements name. */
async function documentsById(scope: TenantScope, ids: string[]): Promise<Map<string, Document>> {
  if (ids.length === 0) return new Map();
  const rows: DocumentRow[] = await scope.selectFrom('documents').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((row) => [row.id, toDocument(row)]));
}

const pick = (documents: Map<string, Document>, ids: string[]) => ids.flatMap((id) => documents.get(id) ?? []);

/**
 * Rows -> Claims, with what each carries beside its own row (assets, third party losses,
 * documents, reviews, settlements, history), read in one query per kind for the whole page.
 * `withDocuments` adds the supporting documents themselves (`include=documents`; always on one claim).
 */
export async function toClaims(scope: TenantScope, rows: ClaimRow[], { withDocuments }: { withDocuments: boolean }): Promise<Claim[]> {
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const [assets, losses, documentLinks, reviews, settlements, changes] = await Promise.all([
    scope.selectFrom('claim_assets').select(['claim_id', 'policy_asset_id']).where('claim_id', 'in', ids).orderBy('claim_id').orderBy('position').execute(),
    scope.selectFrom('claim_third_party_losses').select(['claim_id', 'type', 'amount', 'details']).where('claim_id', 'in', ids)
      .orderBy('claim_id').orderBy('position').execute(),
    scope.selectFrom('claim_documents').select(['claim_id', 'document_id']).where('claim_id', 'in', ids).orderBy('claim_id').orderBy('position').execute(),
    scope.selectFrom('claim_reviews').selectAll().where('claim_id', 'in', ids).orderBy('created_at').orderBy('id').execute(),
    scope.selectFrom('claim_settlements').selectAll().where('claim_id', 'in', ids).orderBy('created_at').orderBy('id').execute(),
    scope.selectFrom('claim_state_changes').select(['claim_id', 'field', 'from_state', 'to_state', 'notes', 'actor_kind', 'actor_id', 'created_at'])
      .where('claim_id', 'in', ids).orderBy('created_at').orderBy('id').execute(),
  ]);
  // Reviews' and settlements' documents always show; the claim's own only when asked for.
  const documents = await documentsById(scope, [
    ...(withDocuments ? documentLinks.map((link) => link.document_id) : []),
    ...reviews.flatMap((review) => review.document_ids), ...settlements.flatMap((settlement) => settlement.document_ids),
  ]);
  const staff = await staffReferences(scope, [
    ...reviews.map((review) => review.created_by_staff_id), ...settlements.map((settlement) => settlement.created_by_staff_id),
    ...changes.map((change) => (change.actor_kind === 'staff' ? change.actor_id : null)),
  ]);
  // A reference for every staff id a claim names (staff rows are never deleted; an unknown id still shows, unnamed).
  const staffNamed = (id: string): StaffReference => staff.get(id) ?? { name: 'staff', id, fullName: '', email: '' };
  const [assetsOf, lossesOf, linksOf, reviewsOf, settlementsOf, changesOf] = [assets, losses, documentLinks, reviews, settlements, changes]
    .map((list) => byClaim(ids, list as { claim_id: string }[])) as [
      Map<string, typeof assets>, Map<string, typeof losses>, Map<string, typeof documentLinks>, Map<string, typeof reviews>,
      Map<string, typeof settlements>, Map<string, typeof changes>];

  const history = (claimId: string, field: 'status' | 'stage'): ClaimStateChange[] => changesOf.get(claimId)!
    .filter((change) => change.field === field)
    .map((change) => ({
      from: change.from_state, to: change.to_state, notes: change.notes,
      staff: change.actor_kind === 'staff' ? change.actor_id : null,
      staffMember: change.actor_kind === 'staff' && change.actor_id !== null ? staffNamed(change.actor_id) : null,
      createdAt: iso(change.created_at),
    }));

  return rows.map((row) => {
    const documentIds = linksOf.get(row.id)!.map((link) => link.document_id);
    return {
      id: row.id,
      claimNo: row.claim_no,
      status: row.status,
      stage: row.stage,
      policyId: row.policy_id,
      policy: {
        id: row.policy_id, policyNo: row.policy_no, policyType: row.policy_type as Claim['policy']['policyType'], state: row.policy_state,
        productName: row.product_name, currency: row.policy_currency, startDate: row.policy_start_date, endDate: row.policy_end_date,
      },
      claimType: row.claim_type,
      dateOfLoss: row.date_of_loss,
      dateOfNotification: row.date_of_notification,
      incidentLocation: row.incident_location,
      description: row.description,
      lossCategory: row.loss_category,
      estimatedLossAmount: Number(row.estimated_loss_amount),
      currency: row.currency,
      exchangeRate: Number(row.exchange_rate),
      convertedEstimatedLossAmount: toCents(new Decimal(row.estimated_loss_amount).mul(row.exchange_rate)).toNumber(),
      assets: assetsOf.get(row.id)!.map((asset) => asset.policy_asset_id),
      thirdPartyLoss: lossesOf.get(row.id)!.map(toThirdPartyLoss),
      documentIds,
      ...(withDocuments ? { documents: pick(documents, documentIds) } : {}),
      reviews: reviewsOf.get(row.id)!.map((review) => ({
        id: review.id, inspectionNotes: review.inspection_notes, generalNotes: review.general_notes,
        adjustedSettlementAmount: numberOrNull(review.adjusted_settlement_amount), createdBy: review.created_by_staff_id,
        createdByStaff: staffNamed(review.created_by_staff_id),
        documents: pick(documents, review.document_ids), createdAt: iso(review.created_at),
      })),
      settlements: settlementsOf.get(row.id)!.map((settlement) => ({
        id: settlement.id, amount: Number(settlement.amount), penaltyApplicable: settlement.penalty_applicable,
        penaltyValue: numberOrNull(settlement.penalty_value), contributionApplicable: settlement.contribution_applicable,
        contributionAmount: numberOrNull(settlement.contribution_amount), recipient: settlement.recipient, paymentDate: settlement.payment_date,
        paymentMethod: settlement.payment_method, paymentMethodInfo: settlement.payment_method_info, createdBy: settlement.created_by_staff_id,
        createdByStaff: staffNamed(settlement.created_by_staff_id),
        documents: pick(documents, settlement.document_ids), createdAt: iso(settlement.created_at),
      })),
      meta: { statusHistory: history(row.id, 'status'), stageHistory: history(row.id, 'stage') },
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    };
  });
}

/** A stored third party loss as it was sent: its money back in the field its type names. */
function toThirdPartyLoss(row: { type: string; amount: string | null; details: Record<string, unknown> }): ThirdPartyLoss {
  const money = row.amount === null ? {} : row.type === 'VEHICLE_DAMAGE' ? { repairEstimate: Number(row.amount) } : { compensationAmount: Number(row.amount) };
  return { ...row.details, type: row.type, ...money } as ThirdPartyLoss;
}

/** One claim of the client's as the API answers it, documents included. */
export async function loadClaim(scope: TenantScope, id: string, clientId: string): Promise<Claim> {
  const [claim] = await toClaims(scope, [await ownClaim(scope, id, clientId)], { withDocuments: true });
  return claim;
}

/** Row -> ClaimSummary (the mini-statement's), from the same rows as the list. */
export const toClaimSummary = (row: ClaimRow): ClaimSummary => ({
  id: row.id, claimNo: row.claim_no, policyNo: row.policy_no, status: row.status, stage: row.stage, claimType: row.claim_type,
  lossCategory: row.loss_category, estimatedLossAmount: Number(row.estimated_loss_amount), currency: row.currency,
  dateOfNotification: row.date_of_notification, createdAt: iso(row.created_at),
});

