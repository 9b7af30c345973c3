import type { components } from '../../../generated/api.js';
import type { StaffPosition, StaffType } from '../../platform/db/schema.js';
import { operationIndex, type OperationMeta } from '../../platform/openapi.js';

/**
 * The staff permission table: for each staff operation, which staff types and positions may call
 * it and over whose rows (their reach). Kept as data: `server/app/security.ts` enforces exactly
 * this for every staff route, `GET /staff/permissions` answers it, the docs page is written from
 * it, and `test/http/staff-permissions.test.ts` calls every operation as every cell that says no.
 *
 * Reach: `OWN` the clients a staff member brought in (and their policies, payments, claims);
 * `DEPARTMENT` those of the staff of their department; `BRANCH` of their branch; `TENANT` the
 * whole company. Clients who came on their own (signed up in a client app) are the company's:
 * every reach but `OWN` includes them.
 */

export type Reach = components['schemas']['PermissionScope'];
export interface Grant { type: StaffType; position: StaffPosition; scope: Reach }
export interface Permission { grants: Grant[]; reason: string }

export const STAFF_TYPES: readonly StaffType[] = ['AGENT', 'NORMAL_STAFF'];
export const POSITIONS: readonly StaffPosition[] = ['LEVEL_OFFICER', 'HEAD_OF_DEPARTMENT', 'BRANCH_MANAGER', 'EXECUTIVE_MANAGER'];

type ByPosition = Partial<Record<StaffPosition, Reach>>;

/** Normal staff of the positions named, each with its reach. */
const staff = (byPosition: ByPosition): Grant[] =>
  POSITIONS.filter((position) => byPosition[position]).map((position) => ({ type: 'NORMAL_STAFF', position, scope: byPosition[position]! }));
/** Agents of any position, always over their own clients only. */
const agents = (): Grant[] => POSITIONS.map((position) => ({ type: 'AGENT', position, scope: 'OWN' }));
/** Every staff member, over what is their own. */
const everyone = (): Grant[] => [...staff({ LEVEL_OFFICER: 'OWN', HEAD_OF_DEPARTMENT: 'OWN', BRANCH_MANAGER: 'OWN', EXECUTIVE_MANAGER: 'OWN' }), ...agents()];

/** Executive managers alone, over the whole company. */
export const EXECUTIVES_ONLY = staff({ EXECUTIVE_MANAGER: 'TENANT' });
/** Managers of the organisation: a branch manager their branch, an executive manager the company. */
export const MANAGERS = staff({ BRANCH_MANAGER: 'BRANCH', EXECUTIVE_MANAGER: 'TENANT' });
/** Readers of the organisation: every normal staff member, within their department, branch or company. */
export const ORGANISATION_READERS = staff({ LEVEL_OFFICER: 'DEPARTMENT', HEAD_OF_DEPARTMENT: 'DEPARTMENT', BRANCH_MANAGER: 'BRANCH', EXECUTIVE_MANAGER: 'TENANT' });

/**
 * Products belong to the whole company (or are assigned to it), not to a staff member: every grant
 * over them is company-wide (`TENANT`); reach narrows rows that have an originating staff member.
 */
const companyWide = (positions: StaffPosition[], types: StaffType[] = ['NORMAL_STAFF']): Grant[] =>
  types.flatMap((type) => positions.map((position) => ({ type, position, scope: 'TENANT' as const })));
/** Every staff member, agents included, reading what the company sells. */
export const PRODUCT_READERS = companyWide([...POSITIONS], [...STAFF_TYPES]);
/** Who keeps the company's product catalogue: executive managers and heads of department. */
export const PRODUCT_KEEPERS = companyWide(['HEAD_OF_DEPARTMENT', 'EXECUTIVE_MANAGER']);

const KEEPERS_REASON = 'Executive managers and heads of department (the underwriting and product heads) keep the product catalogue; officers, branch managers and agents sell what it holds and change none of it. Only an insurer or micro-insurer, and only its own products.';

export const PERMISSIONS: Record<string, Permission> = {
  staffLogout: { grants: everyone(), reason: 'Anyone signed in may end their own session.' },
  changeStaffPassword: { grants: everyone(), reason: 'Anyone signed in may change their own password.' },
  getStaffProfile: { grants: everyone(), reason: 'Anyone signed in may read who they are.' },
  listStaffPermissions: { grants: everyone(), reason: 'Anyone signed in may read the table, so an app shows only what its user may do.' },
  listStaffProducts: { grants: PRODUCT_READERS, reason: 'Every staff member reads the products the company sells, OFFLINE ones included; agents too, since they need to see what they may sell.' },
  getStaffProduct: { grants: PRODUCT_READERS, reason: 'Every staff member reads the products the company sells, OFFLINE ones included; agents too, since they need to see what they may sell.' },
  createStaffProduct: { grants: PRODUCT_KEEPERS, reason: KEEPERS_REASON },
  updateStaffProduct: { grants: PRODUCT_KEEPERS, reason: KEEPERS_REASON },
  activateStaffProduct: { grants: PRODUCT_KEEPERS, reason: `${KEEPERS_REASON} Putting a product back on sale is the same decision as creating it.` },
  deactivateStaffProduct: { grants: PRODUCT_KEEPERS, reason: `${KEEPERS_REASON} Taking a product off sale stops new policies on it at once, so it is theirs too.` },
  assignStaffProduct: { grants: PRODUCT_KEEPERS, reason: 'Executive managers and heads of department of an insurer assign its own products to brokers and agents (a distribution agreement the product heads carry out); nobody else commits the company to a distributor.' },
  unassignStaffProduct: { grants: PRODUCT_KEEPERS, reason: 'Withdrawing a product from a broker or agent ends a distribution agreement: the same people who assign it.' },
};

/** What the signed-in staff member's type and position may do with an operation: its grant, or none. */
export function grantFor(operationId: string, who: { type: StaffType; position: StaffPosition }): Grant | undefined {
  return PERMISSIONS[operationId]?.grants.find((grant) => grant.type === who.type && grant.position === who.position);
}

/** The table as `GET /staff/permissions` answers it: one row per staff operation, with its method and path. */
export function permissionList(operations: Map<string, OperationMeta> = operationIndex()): components['schemas']['StaffPermission'][] {
  return Object.entries(PERMISSIONS).map(([operationId, { grants, reason }]) => {
    const operation = operations.get(operationId);
    if (!operation) throw new Error(`the permission table names ${operationId}, which the contract does not have`);
    return { operationId, method: operation.method, path: operation.path, grants, reason };
  });
}
