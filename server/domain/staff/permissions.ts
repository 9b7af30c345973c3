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

/** Who works with clients: an agent its own, officers and heads their department's, a branch manager the branch's, an executive manager the company's. */
export const CLIENT_KEEPERS = [...staff({ LEVEL_OFFICER: 'DEPARTMENT', HEAD_OF_DEPARTMENT: 'DEPARTMENT', BRANCH_MANAGER: 'BRANCH', EXECUTIVE_MANAGER: 'TENANT' }), ...agents()];
/** Heads of department and above, each over their department, branch or company. */
export const CLIENT_SUPERVISORS = staff({ HEAD_OF_DEPARTMENT: 'DEPARTMENT', BRANCH_MANAGER: 'BRANCH', EXECUTIVE_MANAGER: 'TENANT' });

/** Executive managers alone, over the whole company. */
export const EXECUTIVES_ONLY = staff({ EXECUTIVE_MANAGER: 'TENANT' });
/** Managers of the organisation: a branch manager their branch, an executive manager the company. */
export const MANAGERS = staff({ BRANCH_MANAGER: 'BRANCH', EXECUTIVE_MANAGER: 'TENANT' });
/** Readers of the organisation: every normal staff member, within their department, branch or company. */
export const ORGANISATION_READERS = staff({ LEVEL_OFFICER: 'DEPARTMENT', HEAD_OF_DEPARTMENT: 'DEPARTMENT', BRANCH_MANAGER: 'BRANCH', EXECUTIVE_MANAGER: 'TENANT' });

export const PERMISSIONS: Record<string, Permission> = {
  staffLogout: { grants: everyone(), reason: 'Anyone signed in may end their own session.' },
  changeStaffPassword: { grants: everyone(), reason: 'Anyone signed in may change their own password.' },
  getStaffProfile: { grants: everyone(), reason: 'Anyone signed in may read who they are.' },
  listStaffPermissions: { grants: everyone(), reason: 'Anyone signed in may read the table, so an app shows only what its user may do.' },
  createStaffClient: {
    grants: CLIENT_KEEPERS,
    reason: 'Bringing clients in is what agents and sales staff do; an agent credits a new client to itself, others to anyone within their reach.',
  },
  listStaffClients: { grants: CLIENT_KEEPERS, reason: 'Staff serve the clients they are answerable for: an agent its own, a department, branch or company theirs.' },
  getStaffClient: { grants: CLIENT_KEEPERS, reason: 'Staff serve the clients they are answerable for: an agent its own, a department, branch or company theirs.' },
  updateStaffClient: {
    grants: CLIENT_KEEPERS,
    reason: 'Whoever serves a client keeps its profile up to date; crediting a client to someone else is for staff whose reach covers both, never an agent.',
  },
  deactivateStaffClient: {
    grants: CLIENT_SUPERVISORS,
    reason: 'Cutting a client off stops its logins and tokens, which an agent or officer with a stake in the client should not decide alone: heads of department and above.',
  },
  activateStaffClient: { grants: CLIENT_SUPERVISORS, reason: 'Undoing a deactivation is for whoever may make one: heads of department and above.' },
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
