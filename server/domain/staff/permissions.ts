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
export interface Grant {
  type: StaffType; position: StaffPosition; scope: Reach;
  /** On calls that price a policy: how far (percent of the rated premium) the caller may set it. */
  premiumLatitude?: number;
}
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

/**
 * Who assesses claims: normal staff only, officers and heads of department over their department's
 * clients, branch managers their branch's, executive managers the company's. Never agents: an agent
 * does not assess the claims of the clients it sold to.
 */
export const CLAIM_ASSESSORS = staff({ LEVEL_OFFICER: 'DEPARTMENT', HEAD_OF_DEPARTMENT: 'DEPARTMENT', BRANCH_MANAGER: 'BRANCH', EXECUTIVE_MANAGER: 'TENANT' });

/** Executive managers alone, over the whole company. */
export const EXECUTIVES_ONLY = staff({ EXECUTIVE_MANAGER: 'TENANT' });
/** Managers of the organisation: a branch manager their branch, an executive manager the company. */
export const MANAGERS = staff({ BRANCH_MANAGER: 'BRANCH', EXECUTIVE_MANAGER: 'TENANT' });
/** Readers of the organisation: every normal staff member, within their department, branch or company. */
export const ORGANISATION_READERS = staff({ LEVEL_OFFICER: 'DEPARTMENT', HEAD_OF_DEPARTMENT: 'DEPARTMENT', BRANCH_MANAGER: 'BRANCH', EXECUTIVE_MANAGER: 'TENANT' });

/**
 * How far, in percent of the rated premium, staff of each position may set a policy's premium
 * when they sell (up or down): underwriting discretion grows with seniority. Agents sell at the
 * rated price, as clients buy.
 */
export const PREMIUM_LATITUDE: Record<StaffType, Record<StaffPosition, number>> = {
  AGENT: { LEVEL_OFFICER: 0, HEAD_OF_DEPARTMENT: 0, BRANCH_MANAGER: 0, EXECUTIVE_MANAGER: 0 },
  NORMAL_STAFF: { LEVEL_OFFICER: 0, HEAD_OF_DEPARTMENT: 10, BRANCH_MANAGER: 15, EXECUTIVE_MANAGER: 25 },
};

/** Who serves clients: agents their own, normal staff their department's, branch's or company's. */
export const CLIENT_SERVERS: Grant[] = [
  ...agents(),
  ...staff({ LEVEL_OFFICER: 'DEPARTMENT', HEAD_OF_DEPARTMENT: 'DEPARTMENT', BRANCH_MANAGER: 'BRANCH', EXECUTIVE_MANAGER: 'TENANT' }),
];
/** Who sells to clients: the client servers, each with their premium latitude. */
export const SELLERS: Grant[] = CLIENT_SERVERS.map((grant) => ({ ...grant, premiumLatitude: PREMIUM_LATITUDE[grant.type][grant.position] }));

const SELLING = 'Selling is the work of every agent and staff member, for the clients they serve: an agent for the clients it brought in, staff for their department\'s, branch\'s or company\'s. Setting the premium off the rated price is an underwriting call, allowed within a latitude that grows with seniority.';
const AT_THE_COUNTER = 'Whoever serves a client may do for it, at the counter, what it does in its app, through the same rules and recorded as theirs: an agent for the clients it brought in, staff for their department\'s, branch\'s or company\'s.';
const SERVING = 'Whoever serves a client sees its policies, invoices, payments and claims: an agent those of the clients it brought in, staff those of their department\'s, branch\'s or company\'s clients.';
const EVENTS = 'Events carry every client\'s and payment\'s data of the whole company, as the API answered it: they are for the company\'s integrations, which its executive managers set up.';

/**
 * Products belong to the whole company (or are assigned to it), not to a staff member: every grant
 * over them is company-wide (`TENANT`); reach narrows rows that have an originating staff member.
 */
const companyWide = (positions: StaffPosition[], types: StaffType[] = ['NORMAL_STAFF']): Grant[] =>
  types.flatMap((type) => positions.map((position) => ({ type, position, scope: 'TENANT' as const })));
/** Every staff member, agents included, reading what the company sells. */
export const PRODUCT_READERS = companyWide([...POSITIONS], [...STAFF_TYPES]);
/** Who keeps the company's product catalogue: heads of department and everyone above them (rights follow the hierarchy). */
export const PRODUCT_KEEPERS = companyWide(['HEAD_OF_DEPARTMENT', 'BRANCH_MANAGER', 'EXECUTIVE_MANAGER']);

const KEEPERS_REASON = 'Heads of department (the underwriting and product heads) keep the product catalogue, and so do the branch and executive managers above them; officers and agents sell what it holds and change none of it. Only an insurer or micro-insurer, and only its own products.';

/**
 * Who reads commission statements: every seller their own sales (agents and level officers), heads
 * of department their department's, branch managers their branch's, executive managers the company's.
 */
export const COMMISSION_READERS: Grant[] = [
  ...agents(),
  ...staff({ LEVEL_OFFICER: 'OWN', HEAD_OF_DEPARTMENT: 'DEPARTMENT', BRANCH_MANAGER: 'BRANCH', EXECUTIVE_MANAGER: 'TENANT' }),
];
const COMMISSIONS = 'Whoever sells reads the commission their own sales earned; a head of department reads their department\'s sellers\', a branch manager their branch\'s, an executive manager the whole company\'s (sales made in a client app included).';
/** Webhook endpoints push every event of the company (clients', payments', claims' data) to a system outside it. */
const WEBHOOKS = 'Every event of the company (its clients\' profiles, payments and claims) goes to the systems an endpoint names, outside Coverline: choosing them, their secrets and what they receive is for executive managers.';

export const PERMISSIONS: Record<string, Permission> = {
  staffLogout: { grants: everyone(), reason: 'Anyone signed in may end their own session.' },
  changeStaffPassword: { grants: everyone(), reason: 'Anyone signed in may change their own password.' },
  getStaffProfile: { grants: everyone(), reason: 'Anyone signed in may read who they are.' },
  listStaffPermissions: { grants: everyone(), reason: 'Anyone signed in may read the table, so an app shows only what its user may do.' },
  confirmStaffContactChange: { grants: everyone(), reason: 'Anyone signed in confirms the new e-mail or phone number a manager set for them, with the code sent to it: their own account only.' },
  quotePolicyForClient: { grants: SELLERS, reason: SELLING },
  createPolicyForClient: { grants: SELLERS, reason: SELLING },
  renewStaffPolicy: { grants: SELLERS, reason: SELLING },
  checkoutCartForClient: { grants: SELLERS, reason: SELLING },
  listStaffPolicies: { grants: CLIENT_SERVERS, reason: SERVING },
  getStaffPolicy: { grants: CLIENT_SERVERS, reason: SERVING },
  listStaffInvoices: { grants: CLIENT_SERVERS, reason: SERVING },
  listStaffTransactions: { grants: CLIENT_SERVERS, reason: SERVING },
  getStaffTransaction: { grants: CLIENT_SERVERS, reason: SERVING },
  createTransactionForClient: { grants: CLIENT_SERVERS, reason: 'Whoever serves a client may take its payment: money paid at the branch is recorded PENDING_APPROVAL for a head of department or above (not the one who recorded it) to approve; a mobile money prompt or a checkout link is paid by the client itself.' },
  approveTransaction: { grants: CLIENT_SUPERVISORS, reason: 'Confirming that money paid at the branch was received issues a receipt and may start the policy: a supervisor\'s call (heads of department and above, over the clients they supervise), never the recorder\'s own.' },
  rejectTransaction: { grants: CLIENT_SUPERVISORS, reason: 'Declaring that money recorded at the branch never arrived is for whoever may approve it: heads of department and above, over the clients they supervise.' },
  listStaffClaims: { grants: CLIENT_SERVERS, reason: SERVING },
  listStaffPolicyClosures: { grants: CLIENT_SERVERS, reason: 'Whoever serves a client sees the closure requests it made, to answer its questions about them: an agent those of the clients it brought in, staff those of their department\'s, branch\'s or company\'s clients.' },
  getStaffPolicyClosure: { grants: CLIENT_SERVERS, reason: 'Whoever serves a client sees the closure requests it made, to answer its questions about them: an agent those of the clients it brought in, staff those of their department\'s, branch\'s or company\'s clients.' },
  approvePolicyClosure: { grants: CLIENT_SUPERVISORS, reason: 'Approving a closure cancels the policy and writes off what is unpaid on it: a supervisor\'s decision (head of department, branch manager, executive manager, over their department, branch or company), not an officer\'s or an agent\'s.' },
  rejectPolicyClosure: { grants: CLIENT_SUPERVISORS, reason: 'Rejecting a closure keeps a client on cover it asked to end: the same supervisors who may approve one decide it.' },
  movePolicyState: {
    grants: CLIENT_SUPERVISORS,
    reason: 'Underwriting, holding a policy for payment, declining, releasing it and archiving it are decisions on the company\'s risk: heads of department for their department\'s clients, branch managers for their branch\'s, executive managers for the company\'s; officers and agents serve and sell but do not decide.',
  },
  listStaffPolicyHistory: { grants: CLIENT_SERVERS, reason: `${SERVING} A policy's history, who moved it when and why, is part of serving it.` },
  getStaffClaim: { grants: CLIENT_SERVERS, reason: SERVING },
  reviewClaim: { grants: CLAIM_ASSESSORS, reason: 'Assessing a claim is the work of normal staff, over their department\'s, branch\'s or company\'s clients; never an agent, who does not assess the claims of the clients it sold to.' },
  moveClaimStage: { grants: CLIENT_SUPERVISORS, reason: 'Deciding to pay or decline a claim is not the reviewer\'s alone: heads of department and above move it to settlement or repudiation.' },
  settleClaim: { grants: CLIENT_SUPERVISORS, reason: 'Paying a claim out commits the company\'s money: heads of department and above record the settlement, within the reviewed amount.' },
  closeClaim: { grants: CLIENT_SUPERVISORS, reason: 'Closing a decided claim is for whoever decides claims: heads of department and above.' },
  getSettlementLimits: { grants: companyWide([...POSITIONS]), reason: 'Every normal staff member may read how much each position may settle a claim for, and the four-eyes threshold (agents do not handle claims).' },
  setSettlementLimits: { grants: EXECUTIVES_ONLY, reason: 'Delegating the company\'s claims authority is a decision for the whole company: only its executive managers set the limits, and never above the defaults.' },

  // The staff member's own inbox.
  listStaffNotifications: { grants: everyone(), reason: 'Anyone signed in reads their own notifications, and nobody else\'s.' },
  getStaffNotification: { grants: everyone(), reason: 'Anyone signed in reads their own notifications, and nobody else\'s.' },
  updateStaffNotificationStatus: { grants: everyone(), reason: 'Anyone signed in marks their own notifications read or unread.' },
  deleteStaffNotification: { grants: everyone(), reason: 'Anyone signed in removes their own notifications.' },
  listStaffMessages: { grants: everyone(), reason: 'Anyone signed in reads the e-mails and SMS sent to them (codes masked), and nobody else\'s.' },

  // The organisation: branches and departments.
  listBranches: { grants: ORGANISATION_READERS, reason: 'Normal staff see the branch they work in (executive managers every branch); agents sell and need no view of the organisation.' },
  getBranch: { grants: ORGANISATION_READERS, reason: 'Normal staff see the branch they work in (executive managers every branch); agents sell and need no view of the organisation.' },
  createBranch: { grants: EXECUTIVES_ONLY, reason: 'Branches are the shape of the whole company: only its executive managers open one.' },
  updateBranch: { grants: EXECUTIVES_ONLY, reason: 'Branches are the shape of the whole company: only its executive managers change one.' },
  deleteBranch: { grants: EXECUTIVES_ONLY, reason: 'Branches are the shape of the whole company: only its executive managers close one (once it has no departments).' },
  listDepartments: { grants: ORGANISATION_READERS, reason: 'Normal staff see their own department, branch managers their branch\'s, executive managers every one; agents need no view of the organisation.' },
  getDepartment: { grants: ORGANISATION_READERS, reason: 'Normal staff see their own department, branch managers their branch\'s, executive managers every one; agents need no view of the organisation.' },
  createDepartment: { grants: MANAGERS, reason: 'A branch manager organises their own branch into departments; executive managers any branch.' },
  updateDepartment: { grants: MANAGERS, reason: 'A branch manager changes the departments of their own branch (without moving them out of it); executive managers any.' },
  deleteDepartment: { grants: EXECUTIVES_ONLY, reason: 'Closing a department is a decision for the whole company: only its executive managers (once it has no staff).' },

  // The organisation: staff members.
  listStaffMembers: { grants: ORGANISATION_READERS, reason: 'Normal staff see their department\'s colleagues, branch managers their branch\'s staff, executive managers everyone; agents need no view of the organisation.' },
  getStaffMember: { grants: ORGANISATION_READERS, reason: 'Normal staff see their department\'s colleagues, branch managers their branch\'s staff, executive managers everyone; agents need no view of the organisation.' },
  createStaffMember: { grants: MANAGERS, reason: 'Managers staff the company: a branch manager adds officers and heads of department to their own branch; executive managers anyone, managers included.' },
  updateStaffMember: { grants: MANAGERS, reason: 'Managers change their staff: a branch manager those of their branch below branch manager; executive managers anyone. Nobody changes their own position.' },
  deactivateStaffMember: { grants: MANAGERS, reason: 'Stopping someone\'s access is a manager\'s call: a branch manager for their branch below branch manager; executive managers anyone. Nobody deactivates themselves.' },
  activateStaffMember: { grants: MANAGERS, reason: 'Giving access back is a manager\'s call, as taking it away is: a branch manager for their branch below branch manager; executive managers anyone.' },
  listStaffProducts: { grants: PRODUCT_READERS, reason: 'Every staff member reads the products the company sells, OFFLINE ones included; agents too, since they need to see what they may sell.' },
  getStaffProduct: { grants: PRODUCT_READERS, reason: 'Every staff member reads the products the company sells, OFFLINE ones included; agents too, since they need to see what they may sell.' },
  createStaffProduct: { grants: PRODUCT_KEEPERS, reason: KEEPERS_REASON },
  updateStaffProduct: { grants: PRODUCT_KEEPERS, reason: KEEPERS_REASON },
  activateStaffProduct: { grants: PRODUCT_KEEPERS, reason: `${KEEPERS_REASON} Putting a product back on sale is the same decision as creating it.` },
  deactivateStaffProduct: { grants: PRODUCT_KEEPERS, reason: `${KEEPERS_REASON} Taking a product off sale stops new policies on it at once, so it is theirs too.` },
  assignStaffProduct: { grants: PRODUCT_KEEPERS, reason: 'Heads of department of an insurer, and the branch and executive managers above them, assign its own products to brokers and agents (a distribution agreement the product heads carry out); nobody else commits the company to a distributor.' },
  unassignStaffProduct: { grants: PRODUCT_KEEPERS, reason: 'Withdrawing a product from a broker or agent ends a distribution agreement: the same people who assign it.' },
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

  // Commission statements.
  getCommissionStatement: { grants: COMMISSION_READERS, reason: COMMISSIONS },
  exportCommissionStatement: { grants: COMMISSION_READERS, reason: COMMISSIONS },

  // Serving a walk-in client at the counter: what the client does in its app, done for it by whoever serves it.
  createClaimForClient: { grants: CLIENT_SERVERS, reason: `${AT_THE_COUNTER} Filing a claim only starts it: assessing and paying it stay with claim assessors and supervisors.` },
  requestPolicyClosureForClient: { grants: CLIENT_SERVERS, reason: `${AT_THE_COUNTER} Asking for a closure only starts it: a supervisor decides it.` },
  uploadDocumentsForClient: { grants: CLIENT_SERVERS, reason: `${AT_THE_COUNTER} The documents are the client's, as if it uploaded them.` },
  listDocumentsForClient: { grants: CLIENT_SERVERS, reason: SERVING },
  downloadStaffDocument: { grants: CLIENT_SERVERS, reason: SERVING },
  deleteStaffDocument: { grants: CLIENT_SERVERS, reason: `${AT_THE_COUNTER} A wrong scan is removed as the client itself would remove it.` },
  createDirectDebitForClient: { grants: CLIENT_SERVERS, reason: `${AT_THE_COUNTER} A mandate takes the client's money only as each prompt on its phone is approved.` },
  cancelDirectDebitForClient: { grants: CLIENT_SERVERS, reason: `${AT_THE_COUNTER} Stopping the debits takes nothing from the client; the invoice stays to pay.` },
  downloadStaffReceipt: { grants: CLIENT_SERVERS, reason: `${SERVING} Printing the receipt of confirmed money is the cashier's work.` },
  getStaffInvoice: { grants: CLIENT_SERVERS, reason: SERVING },
  createStaffInvoice: { grants: CLIENT_SERVERS, reason: 'Invoicing a draft at its premium is what its client may ask in its app and what a seller does at a sale: whoever serves the client, within their reach. Changing the premium is not part of it.' },
  listAuditEvents: {
    grants: EXECUTIVES_ONLY,
    reason: 'The audit trail shows every decision of every staff member, the reviewers of others\' work included: it is read by those accountable for the whole company, executive managers.',
  },
  // Webhooks: where the company's events (every client's and payment's data) are pushed.
  listWebhookEndpoints: { grants: EXECUTIVES_ONLY, reason: WEBHOOKS },
  createWebhookEndpoint: { grants: EXECUTIVES_ONLY, reason: WEBHOOKS },
  getWebhookEndpoint: { grants: EXECUTIVES_ONLY, reason: WEBHOOKS },
  updateWebhookEndpoint: { grants: EXECUTIVES_ONLY, reason: WEBHOOKS },
  deleteWebhookEndpoint: { grants: EXECUTIVES_ONLY, reason: WEBHOOKS },
  rotateWebhookEndpointSecret: { grants: EXECUTIVES_ONLY, reason: WEBHOOKS },
  sendWebhookTestEvent: { grants: EXECUTIVES_ONLY, reason: WEBHOOKS },
  listWebhookDeliveries: { grants: EXECUTIVES_ONLY, reason: WEBHOOKS },
  retryWebhookDelivery: { grants: EXECUTIVES_ONLY, reason: WEBHOOKS },
  listEvents: { grants: EXECUTIVES_ONLY, reason: EVENTS },
  getEvent: { grants: EXECUTIVES_ONLY, reason: EVENTS },
  sendClientSetUpCode: { grants: CLIENT_KEEPERS, reason: 'Whoever may open a client account may resend its set-up code: the code goes to the client, never to the caller, and staff never choose the password.' },
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
