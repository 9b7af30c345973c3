import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { publishedDocument } from '../../platform/openapi.js';
import { visibleProducts } from '../products/visible.js';
import { kindOf } from './kinds/index.js';

type PolicyType = components['schemas']['PolicyType'];
type PolicyTypeInfoView = components['schemas']['PolicyTypeInfo'];

export interface PolicyTypeInfo {
  name: string;
  /** The contract's schema for this type's assets. */
  assetSchema: string;
  /** The typed create call, when the type has one of its own. */
  createPath?: string;
  /** Whether the policy carries the scheme's own sum insured (group schemes, workmen's compensation). */
  schemeSumInsured: boolean;
}

/**
 * Each policy type as the contract defines it, named by its kind (kinds/): `createPolicy`'s
 * discriminator names the type's create schema, that schema's `assets` its asset schema (and
 * whether it has a `sumInsured`), and the typed call is the create under `/client/policies/` whose
 * body is exactly that schema. Read once, from the published document.
 */
function fromContract(): Record<PolicyType, PolicyTypeInfo> {
  const doc = publishedDocument() as unknown as { components: { schemas: Record<string, any> }; paths: Record<string, any> };
  const schemas = doc.components.schemas;
  const name = (ref: string) => ref.split('/').pop()!;
  const typedCalls = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const ref = item.post?.requestBody?.content?.['application/json']?.schema?.$ref;
    // Only the creates: the quote calls (`/client/quotes/...`) take the same bodies.
    if (ref && path.startsWith('/client/policies/')) typedCalls.set(name(ref), path);
  }
  const mapping: Record<string, string> = schemas.PolicyCreateRequest.discriminator.mapping;
  return Object.fromEntries(Object.entries(mapping).map(([policyType, ref]) => {
    const create = schemas[name(ref)];
    return [policyType, {
      name: kindOf(policyType).name,
      assetSchema: name(create.properties.assets.items.$ref),
      createPath: typedCalls.get(name(ref)),
      schemeSumInsured: 'sumInsured' in create.properties,
    }];
  })) as Record<PolicyType, PolicyTypeInfo>;
}

export const POLICY_TYPES = fromContract();

/** A stored policy's scheme sum insured, for pricing it again. */
export const schemeSumInsuredOf = (policy: { policy_type: string; sum_insured: string | null }) =>
  POLICY_TYPES[policy.policy_type as PolicyType].schemeSumInsured && policy.sum_insured !== null ? Number(policy.sum_insured) : undefined;

/** Every policy type, with its asset schema, its create call and how many products the tenant's clients can buy. */
export async function policyTypesOnSale(ctx: HandlerContext): Promise<PolicyTypeInfoView[]> {
  const counts = await visibleProducts(ctx).select(['products.category']).select((eb) => eb.fn.countAll<string>().as('count'))
    .groupBy('products.category').execute();
  const available = new Map(counts.map((row) => [row.category, Number(row.count)]));
  return Object.entries(POLICY_TYPES).map(([policyType, info]) => ({
    policyType: policyType as PolicyType,
    name: info.name,
    assetSchema: info.assetSchema,
    createPath: info.createPath ?? '/client/policies',
    productCount: available.get(policyType) ?? 0,
  }));
}
