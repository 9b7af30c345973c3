import { randomUUID } from 'node:crypto';
import { grantFor, PERMISSIONS, POSITIONS, STAFF_TYPES } from '../../server/domain/staff/permissions.js';
import type { StaffPosition, StaffType } from '../../server/platform/db/schema.js';
import { operationIndex, type OperationMeta } from '../../server/platform/openapi.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { sandboxDepartment } from '../helpers/staff.js';

/**
 * The permission table, enforced: for every operation in `PERMISSIONS` (so an operation added to
 * the table later is covered with no change here) and every one of the 8 staff types and positions
 * the table does not grant it, a call by such a staff member answers 403 NOT_PERMITTED. Path
 * parameters are random uuids and there is no body: the check runs in `onRequest`, before the
 * request is validated or any row looked up. The staff members are inserted here, one per type and
 * position (the sandbox has no agent of most positions), each in a department but the executive
 * managers.
 */

let h: Harness;
const tokens = new Map<string, string>();
const cell = (type: StaffType, position: StaffPosition) => `${type}/${position}`;

beforeAll(async () => {
  h = await createHarness();
  const department = sandboxDepartment('Retail Sales').id;
  for (const type of STAFF_TYPES) {
    for (const position of POSITIONS) {
      const { id, session_version: sessionVersion } = await h.db.insertInto('staff').values({
        tenant_id: h.tenantId, email: `${type}.${position}@permissions.example`.toLowerCase(), first_name: type, last_name: position,
        type, position, department_id: position === 'EXECUTIVE_MANAGER' ? null : department,
      }).returning(['id', 'session_version']).executeTakeFirstOrThrow();
      const { token } = await h.app.services.signStaffAccessToken({ tenantId: h.tenantId, staffId: id, sessionVersion });
      tokens.set(cell(type, position), token);
    }
  }
});
afterAll(async () => { await h.close(); });

const operations = operationIndex();
const refusals = Object.keys(PERMISSIONS).flatMap((operationId) =>
  STAFF_TYPES.flatMap((type) => POSITIONS
    .filter((position) => !grantFor(operationId, { type, position }))
    .map((position) => [operationId, type, position] as [string, StaffType, StaffPosition])));

/** The operation's path with every parameter a random uuid. */
const urlOf = (op: OperationMeta) => `/api/v1${op.path.replace(/\{[^}]+\}/g, () => randomUUID())}`;

describe('the staff permission table, enforced', () => {
  it('names only operations of the contract, each a staff call, and refuses some cell somewhere', () => {
    for (const operationId of Object.keys(PERMISSIONS)) {
      const op = operations.get(operationId);
      expect({ operationId, staff: op?.security.every((requirement) => 'staffAuth' in requirement) }).toEqual({ operationId, staff: true });
    }
    expect(refusals.length).toBeGreaterThan(0);
  });

  it.each(refusals)('%s refuses a %s %s: 403 NOT_PERMITTED', async (operationId, type, position) => {
    const op = operations.get(operationId)!;
    const res = await h.call({
      method: op.method as 'GET', url: urlOf(op), token: tokens.get(cell(type, position)),
      ...(op.bodyTypes.includes('application/json') && { payload: {} }),
    });
    expect(res.statusCode).toBe(403);
    const action = op.summary.charAt(0).toLowerCase() + op.summary.slice(1);
    expect(res.json()).toEqual({ statusCode: 403, requestId: expect.any(String), error: 'Forbidden', code: 'NOT_PERMITTED', message: `A ${position} (${type}) may not ${action}` });
  });

  it('lets every granted cell past the check (it answers anything but 403 NOT_PERMITTED)', async () => {
    // One granted cell per operation is enough to show the table is not simply refusing everyone.
    for (const operationId of Object.keys(PERMISSIONS)) {
      const grant = PERMISSIONS[operationId].grants[0];
      if (!grant) continue;
      const op = operations.get(operationId)!;
      // Reads only: a write with a random id would be refused later, for its own reasons.
      if (op.method !== 'GET') continue;
      const res = await h.call({ method: 'GET', url: urlOf(op), token: tokens.get(cell(grant.type, grant.position)) });
      expect({ operationId, code: res.json().code }).not.toEqual({ operationId, code: 'NOT_PERMITTED' });
    }
  });
});
