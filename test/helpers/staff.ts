import { readFileSync } from 'node:fs';
import type { Harness } from './harness.js';

/**
 * The sandbox broker's organisation and staff, read from the seed's own data file
 * (server/platform/db/data/sandbox-staff.json): one branch, two departments and a staff member of
 * every type and position, all with the same documented password.
 */

interface SeedStaff { id: string; email: string; phoneNumber: string; firstName: string; lastName: string; position: string; department: string | null }
const seed: { password: string; branches: { id: string; name: string }[]; departments: { id: string; name: string }[]; staff: SeedStaff[] } =
  JSON.parse(readFileSync(new URL('../../server/platform/db/data/sandbox-staff.json', import.meta.url), 'utf8'));

export const SANDBOX_STAFF_PASSWORD = seed.password;

/** A sandbox staff member by the part of their email before the `@` (`exec`, `branch.manager`, `head.sales`, `head.claims`, `officer`, `agent`). */
export function sandboxStaff(handle: string): SeedStaff {
  const member = seed.staff.find((s) => s.email.startsWith(`${handle}@`));
  if (!member) throw new Error(`no sandbox staff member ${handle}@`);
  return member;
}

export const sandboxBranch = (name: string) => seed.branches.find((b) => b.name === name)!;
export const sandboxDepartment = (name: string) => seed.departments.find((d) => d.name === name)!;

/**
 * A staff session of the sandbox tenant, signed as a login signs one but without logging in:
 * logins take from the per-address limit, which suites that log in many times use up.
 */
export async function staffSession(h: Pick<Harness, 'app' | 'db' | 'tenantId' | 'apiKey'>, handle = 'exec') {
  const { id, email } = sandboxStaff(handle);
  const { session_version: sessionVersion } = await h.db.selectFrom('staff').select('session_version').where('id', '=', id).executeTakeFirstOrThrow();
  const { token } = await h.app.services.signStaffAccessToken({ tenantId: h.tenantId, staffId: id, sessionVersion });
  return { id, token, apiKey: h.apiKey, username: email, password: SANDBOX_STAFF_PASSWORD };
}

/** Signed sessions' tokens of the sandbox staff the money and counter suites use, by role. */
export async function sandboxStaffTokens(h: Pick<Harness, 'app' | 'db' | 'tenantId' | 'apiKey'>) {
  return {
    exec: (await staffSession(h, 'exec')).token, headSales: (await staffSession(h, 'head.sales')).token,
    headClaims: (await staffSession(h, 'head.claims')).token, officer: (await staffSession(h, 'officer')).token,
    agent: (await staffSession(h, 'agent')).token,
  };
}

/** A sandbox staff member as the API names them in a StaffReference. */
export const staffRef = (member: { id: string; email: string; firstName: string; lastName: string }) =>
  ({ name: 'staff', id: member.id, fullName: `${member.firstName} ${member.lastName}`, email: member.email });
