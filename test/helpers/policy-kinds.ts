import { RatingError, ratePolicy } from '../../server/domain/rating/index.js';
import { checkKindAssets, type PolicyKind } from '../../server/domain/policies/kinds/index.js';
import { TABLE, type KindRow } from '../../scripts/policy-kinds.js';

/**
 * The kind checks: the table's rows (spec/policy-kinds.yaml) against the registry's kinds
 * (server/domain/policies/kinds/index.ts). Answers what is missing or wrong, one sentence each
 * naming the kind, the row and the module; none when they agree. The real table and registry go
 * through it (test/static/policy-kind-registry.test.ts), and so does a fixture kind.
 */
export function kindProblems(rows: KindRow[], kinds: readonly PolicyKind<string>[]): string[] {
  const problems: string[] = [];
  const byType = new Map<string, PolicyKind<string>>();
  for (const kind of kinds) {
    if (byType.has(kind.policyType)) problems.push(`${kind.policyType}: two modules of server/domain/policies/kinds/ register it (registry: kinds/index.ts)`);
    byType.set(kind.policyType, kind);
    if (!kind.name.trim()) problems.push(`${kind.policyType}: its module in server/domain/policies/kinds/ has no display name`);
  }
  const rowTypes = new Set(rows.map((row) => row.policyType));
  for (const row of rows) {
    if (!byType.has(row.policyType)) {
      problems.push(`${row.policyType} (${TABLE} row ${row.schema}) has no module: write one in server/domain/policies/kinds/ and register it in kinds/index.ts`);
    }
  }
  for (const kind of kinds) {
    if (!rowTypes.has(kind.policyType)) {
      problems.push(`${kind.policyType} (module "${kind.name}" in server/domain/policies/kinds/) has no row in ${TABLE}: add one (policyType and schema, and create/quote for typed calls)`);
    }
  }
  for (const row of rows) {
    const kind = byType.get(row.policyType);
    if (kind && row.example) {
      const refused = exampleRefusal(kind, row.example);
      if (refused) problems.push(`${row.policyType}: the example of ${TABLE} row ${row.schema} does not pass its module's asset rules and rater: ${refused}`);
    }
  }
  return problems;
}

/** Why a kind's rules or rater refuse a row's request example (checked the day before its cover starts), or nothing. */
function exampleRefusal(kind: PolicyKind<string>, example: Record<string, unknown>): string | undefined {
  const term = { startDate: String(example.startDate), endDate: String(example.endDate) };
  const dayBefore = new Date(Date.parse(`${term.startDate}T00:00:00Z`) - 86_400_000);
  const today = { date: dayBefore.toISOString().slice(0, 10), year: dayBefore.getUTCFullYear() };
  const assets = (example.assets as Record<string, unknown>[] | undefined) ?? [];
  try {
    const checked = checkKindAssets(kind, assets, term, today);
    ratePolicy({ rateAsset: kind.rateAsset, premiumRates: { rate: 1 }, assets: checked, ...term, currentYear: today.year });
    return undefined;
  } catch (error) {
    if (error instanceof RatingError) return `assets[${error.assetIndex}].${error.field} ${error.message}`;
    return (error as Error).message;
  }
}
