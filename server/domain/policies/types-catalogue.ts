import type { components } from '../../../generated/api.js';
import type { HandlerContext } from '../../platform/context.js';
import { publishedDocument } from '../../platform/openapi.js';
import { visibleProducts } from '../products/visible.js';

type PolicyType = components['schemas']['PolicyType'];
type PolicyTypeInfoView = components['schemas']['PolicyTypeInfo'];

/** What people call each policy type. */
const NAMES: Record<PolicyType, string> = {
  AUTO: 'Auto',
  BANKERS_INDEMNITY: 'Bankers indemnity',
  BLANKET_BOND: 'Blanket bond',
  BONDS: 'Bonds (advance payment bond)',
  BOILER_OR_PRESSURE_VESSEL: 'Boiler or pressure vessel',
  BURGLARY: 'Burglary',
  BUSINESS_INTERRUPTION: 'Business interruption',
  MONEY: 'Money (cash in safe, cash in transit, hold-up)',
  DIRECTORS_OFFICERS_LIABILITY: 'Directors and officers liability',
  ELECTRONIC_EQUIPMENT: 'Electronic equipment',
  EMPLOYERS_LIABILITY: "Employers' liability",
  ERECTION_ALL_RISKS: 'Erection all risks',
  CONTRACTORS_ALL_RISKS: 'Contractors all risks',
  FIDELITY_GUARANTEE: 'Fidelity guarantee',
  GENERAL_LIABILITY: 'General liability',
  GOODS_IN_TRANSIT: 'Goods in transit',
  GROUP_PERSONAL_ACCIDENT: 'Group personal accident',
  HOME: 'Home',
  MARINE: 'Marine',
  PERSONAL_ACCIDENT: 'Personal accident',
  PLANT_ALL_RISKS: 'Plant all risks',
  PLANT_AND_MACHINERY: 'Plant and machinery',
  PROFESSIONAL_INDEMNITY: 'Professional indemnity',
  PROPERTY_DAMAGE: 'Property damage',
  PUBLIC_LIABILITY: 'Public liability',
  TRAVEL: 'Travel',
  AVIATION: 'Aviation',
  WORKMENS_COMPENSATION: "Workmen's compensation",
  FIRE_AND_ALLIED_PERILS: 'Fire and allied perils',
  ASSETS_ALL_RISKS: 'Assets all risks',
  AGRICULTURAL: 'Agricultural',
  STOCK_DETERIORATION: 'Stock deterioration',
  MOTOR_TRADERS: 'Motor traders',
  LIFE: 'Life',
  GROUP_LIFE_PERSONAL_ACCIDENT: 'Group life and personal accident',
  GROUP_LIFE: 'Group life',
  GROUP_FUNERAL: 'Group funeral',
  HEALTH: 'Health',
  PENSION: 'Pension',
};

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
 * Each policy type as the contract defines it: `createPolicy`'s discriminator names the type's
 * create schema, that schema's `assets` its asset schema (and whether it has a `sumInsured`), and
 * the typed call is the create under `/client/policies/` whose body is exactly that schema. Read
 * once, from the published document.
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
      name: NAMES[policyType as PolicyType],
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
