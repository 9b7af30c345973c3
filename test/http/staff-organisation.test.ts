import { randomUUID } from 'node:crypto';
import { createHarness, type Harness } from '../helpers/harness.js';
import { codeSentTo, signUp } from '../helpers/clients.js';
import { SANDBOX_STAFF_PASSWORD, sandboxBranch, sandboxDepartment, sandboxStaff, staffSession } from '../helpers/staff.js';

/**
 * The staff organisation calls: branches, departments and staff members, as the sandbox broker's
 * executive manager, branch manager and officers meet them (test/helpers/staff.ts). A second branch
 * with a department and an officer is made here so a branch manager has something out of reach,
 * and rows of another tenant are inserted directly (it has no staff of its own to make them).
 */

let h: Harness;
const tokens: Record<string, string> = {};
const HEAD_OFFICE = sandboxBranch('Accra Head Office').id;
const RETAIL_SALES = sandboxDepartment('Retail Sales').id;
const CLAIMS = sandboxDepartment('Claims and Payments').id;
const other = { branch: '', department: '', member: '' };
const kumasi = { branch: '', department: '', officer: '' };

beforeAll(async () => {
  h = await createHarness();
  for (const handle of ['exec', 'branch.manager', 'head.sales', 'officer', 'agent']) tokens[handle] = (await staffSession(h, handle)).token;
  // Another tenant's organisation.
  other.branch = (await h.db.insertInto('branches').values({ tenant_id: h.otherTenantId, name: 'Lagos Island' }).returning('id').executeTakeFirstOrThrow()).id;
  other.department = (await h.db.insertInto('departments').values({ tenant_id: h.otherTenantId, branch_id: other.branch, name: 'Lagos Sales' })
    .returning('id').executeTakeFirstOrThrow()).id;
  other.member = (await h.db.insertInto('staff').values({
    tenant_id: h.otherTenantId, email: 'someone@other-tenant.example', first_name: 'Ngozi', last_name: 'Okafor', position: 'LEVEL_OFFICER', department_id: other.department,
  }).returning('id').executeTakeFirstOrThrow()).id;
  // A second branch of the sandbox, made through the API.
  const branch = await call('exec', 'POST', '/staff/branches', { name: 'Kumasi Adum', address: '3 Prempeh II Street, Kumasi' });
  kumasi.branch = branch.json().data.id;
  kumasi.department = (await call('exec', 'POST', '/staff/departments', { name: 'Kumasi Sales', branchId: kumasi.branch })).json().data.id;
  kumasi.officer = (await call('exec', 'POST', '/staff/members', {
    email: 'yaw.kumasi@sandbox.coverline.example', firstName: 'Yaw', lastName: 'Mensah', position: 'LEVEL_OFFICER',
    departmentId: kumasi.department, password: 'Kumasi-Pass-1',
  })).json().data.id;
});
afterAll(async () => { await h.close(); });

function call(who: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  return h.call({ method, url: `/api/v1${url}`, token: tokens[who] ?? who, ...(payload && { payload }) });
}

const login = (username: string, password: string) => h.call({ method: 'POST', url: '/api/v1/staff/auth/login', payload: { username, password } });

function expectError(res: { statusCode: number; json(): any }, statusCode: number, code: string, message?: string | RegExp) {
  expect({ statusCode: res.statusCode, code: res.json().code }).toEqual({ statusCode, code });
  if (message !== undefined) expect(res.json().message).toMatch(message);
}

describe('branches', () => {
  it('creates, reads, lists, updates and deletes a branch as an executive manager, recording who', async () => {
    const created = await call('exec', 'POST', '/staff/branches', { name: 'Takoradi Market Circle', address: '1 Market Circle', description: 'Western region.' });
    expect(created.statusCode).toBe(201);
    const branch = created.json().data;
    expect(branch).toMatchObject({ name: 'Takoradi Market Circle', address: '1 Market Circle', description: 'Western region.' });
    const row = await h.db.selectFrom('branches').selectAll().where('id', '=', branch.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ created_by_staff_id: sandboxStaff('exec').id, updated_by_staff_id: sandboxStaff('exec').id });

    expect((await call('exec', 'GET', `/staff/branches/${branch.id}`)).json().data).toEqual(branch);
    const list = (await call('exec', 'GET', '/staff/branches?limit=2&page=1')).json();
    expect(list.paginator).toMatchObject({ itemsCount: 3, limit: 2, pageCount: 2, hasNextPage: true });
    expect(list.data.map((b: { name: string }) => b.name)).toEqual(['Accra Head Office', 'Kumasi Adum']);

    const updated = await call('exec', 'PATCH', `/staff/branches/${branch.id}`, { address: null, name: 'Takoradi Harbour' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ id: branch.id, name: 'Takoradi Harbour', address: null, description: 'Western region.' });

    const deleted = await call('exec', 'DELETE', `/staff/branches/${branch.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ statusCode: 200, success: true, message: 'Branch deleted' });
    expectError(await call('exec', 'GET', `/staff/branches/${branch.id}`), 404, 'NOT_FOUND', 'Branch not found');
  });

  it('refuses a taken name in any case, and deleting a branch with departments (409)', async () => {
    expectError(await call('exec', 'POST', '/staff/branches', { name: 'ACCRA head office' }), 409, 'BRANCH_NAME_TAKEN', /^body\.name /);
    expectError(await call('exec', 'PATCH', `/staff/branches/${kumasi.branch}`, { name: 'accra head office' }), 409, 'BRANCH_NAME_TAKEN', /^body\.name /);
    expectError(await call('exec', 'DELETE', `/staff/branches/${HEAD_OFFICE}`), 409, 'BRANCH_IN_USE');
  });

  it.each([
    [{}, 'body.name is required'],
    [{ name: 'AB' }, 'body.name must NOT have fewer than 3 characters'],
    [{ name: 'x'.repeat(121) }, 'body.name must NOT have more than 120 characters'],
    [{ name: 'Tema', address: 'A1' }, 'body.address must NOT have fewer than 3 characters'],
    [{ name: 'Tema', description: 'x'.repeat(2001) }, 'body.description must NOT have more than 2000 characters'],
    [{ name: 'Tema', colour: 'red' }, "body has an unknown property 'colour'"],
  ])('validates a new branch: %j', async (payload, message) => {
    const res = await call('exec', 'POST', '/staff/branches', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('validates a change: at least one field, the same bounds', async () => {
    expect((await call('exec', 'PATCH', `/staff/branches/${kumasi.branch}`, {})).json().message).toBe('body must NOT have fewer than 1 properties');
    expect((await call('exec', 'PATCH', `/staff/branches/${kumasi.branch}`, { name: 'AB' })).json().message).toBe('body.name must NOT have fewer than 3 characters');
    expect((await call('exec', 'GET', '/staff/branches/not-a-uuid')).json().message).toBe('params.branchId must match format "uuid"');
  });

  it('shows other staff only the branch they work in; another branch or tenant is not found', async () => {
    for (const who of ['branch.manager', 'officer', 'head.sales']) {
      const list = (await call(who, 'GET', '/staff/branches')).json();
      expect(list.data.map((b: { id: string }) => b.id)).toEqual([HEAD_OFFICE]);
      expect((await call(who, 'GET', `/staff/branches/${HEAD_OFFICE}`)).statusCode).toBe(200);
      expectError(await call(who, 'GET', `/staff/branches/${kumasi.branch}`), 404, 'NOT_FOUND');
    }
    for (const url of [`/staff/branches/${other.branch}`, `/staff/branches/${randomUUID()}`]) {
      expectError(await call('exec', 'GET', url), 404, 'NOT_FOUND');
      expectError(await call('exec', 'PATCH', url, { name: 'Renamed' }), 404, 'NOT_FOUND');
      expectError(await call('exec', 'DELETE', url), 404, 'NOT_FOUND');
    }
  });
});

describe('departments', () => {
  it('creates, reads, lists by branch, updates, moves and deletes a department as an executive manager', async () => {
    const created = await call('exec', 'POST', '/staff/departments', { name: 'Motor Underwriting', description: 'Motor lines.', branchId: HEAD_OFFICE });
    expect(created.statusCode).toBe(201);
    const department = created.json().data;
    expect(department).toMatchObject({ name: 'Motor Underwriting', description: 'Motor lines.', branchId: HEAD_OFFICE, branch: { id: HEAD_OFFICE, name: 'Accra Head Office' } });
    expect((await call('exec', 'GET', `/staff/departments/${department.id}`)).json().data).toEqual(department);

    const ofHeadOffice = (await call('exec', 'GET', `/staff/departments?branchId=${HEAD_OFFICE}`)).json();
    expect(ofHeadOffice.data.map((d: { name: string }) => d.name)).toEqual(['Claims and Payments', 'Motor Underwriting', 'Retail Sales']);
    expect(ofHeadOffice.paginator.itemsCount).toBe(3);
    expect((await call('exec', 'GET', '/staff/departments')).json().paginator.itemsCount).toBe(4);

    const moved = await call('exec', 'PATCH', `/staff/departments/${department.id}`, { branchId: kumasi.branch, description: null });
    expect(moved.json().data).toMatchObject({ id: department.id, branchId: kumasi.branch, branch: { name: 'Kumasi Adum' }, description: null });
    const row = await h.db.selectFrom('departments').selectAll().where('id', '=', department.id).executeTakeFirstOrThrow();
    expect(row.updated_by_staff_id).toBe(sandboxStaff('exec').id);

    expect((await call('exec', 'DELETE', `/staff/departments/${department.id}`)).json()).toEqual({ statusCode: 200, success: true, message: 'Department deleted' });
    expectError(await call('exec', 'GET', `/staff/departments/${department.id}`), 404, 'NOT_FOUND', 'Department not found');
  });

  it('refuses a name taken in the same branch (any case), allows it in another, and refuses deleting a staffed department', async () => {
    expectError(await call('exec', 'POST', '/staff/departments', { name: 'retail SALES', branchId: HEAD_OFFICE }), 409, 'DEPARTMENT_NAME_TAKEN', /^body\.name /);
    const elsewhere = await call('exec', 'POST', '/staff/departments', { name: 'Retail Sales', branchId: kumasi.branch });
    expect(elsewhere.statusCode).toBe(201);
    expectError(await call('exec', 'PATCH', `/staff/departments/${elsewhere.json().data.id}`, { branchId: HEAD_OFFICE }), 409, 'DEPARTMENT_NAME_TAKEN');
    expect((await call('exec', 'DELETE', `/staff/departments/${elsewhere.json().data.id}`)).statusCode).toBe(200);
    expectError(await call('exec', 'DELETE', `/staff/departments/${RETAIL_SALES}`), 409, 'DEPARTMENT_IN_USE');
  });

  it.each([
    [{ branchId: HEAD_OFFICE }, 'body.name is required'],
    [{ name: 'Ops' }, 'body.branchId is required'],
    [{ name: 'Op', branchId: HEAD_OFFICE }, 'body.name must NOT have fewer than 3 characters'],
    [{ name: 'Ops', description: 'ab', branchId: HEAD_OFFICE }, 'body.description must NOT have fewer than 3 characters'],
    [{ name: 'Ops', branchId: 'head-office' }, 'body.branchId must match format "uuid"'],
  ])('validates a new department: %j', async (payload, message) => {
    const res = await call('exec', 'POST', '/staff/departments', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('answers an unknown or another tenant\'s branch in the body with 404 naming the field', async () => {
    for (const branchId of [randomUUID(), other.branch]) {
      expectError(await call('exec', 'POST', '/staff/departments', { name: 'Ghost', branchId }), 404, 'NOT_FOUND', 'Branch not found (body.branchId)');
    }
    for (const url of [`/staff/departments/${other.department}`, `/staff/departments/${randomUUID()}`]) {
      expectError(await call('exec', 'GET', url), 404, 'NOT_FOUND');
      expectError(await call('exec', 'PATCH', url, { name: 'Renamed' }), 404, 'NOT_FOUND');
      expectError(await call('exec', 'DELETE', url), 404, 'NOT_FOUND');
    }
    expect((await call('exec', 'GET', `/staff/departments?branchId=${other.branch}`)).json().data).toEqual([]);
  });

  it('lets a branch manager open and change departments of their own branch only', async () => {
    const created = await call('branch.manager', 'POST', '/staff/departments', { name: 'Bancassurance', branchId: HEAD_OFFICE });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    expect((await call('branch.manager', 'PATCH', `/staff/departments/${id}`, { name: 'Bancassurance Sales' })).json().data.name).toBe('Bancassurance Sales');
    expectError(await call('branch.manager', 'POST', '/staff/departments', { name: 'Elsewhere', branchId: kumasi.branch }), 404, 'NOT_FOUND', 'Branch not found (body.branchId)');
    expectError(await call('branch.manager', 'PATCH', `/staff/departments/${id}`, { branchId: kumasi.branch }), 404, 'NOT_FOUND', 'Branch not found (body.branchId)');
    expectError(await call('branch.manager', 'PATCH', `/staff/departments/${kumasi.department}`, { name: 'Taken Over' }), 404, 'NOT_FOUND');
    expectError(await call('branch.manager', 'GET', `/staff/departments/${kumasi.department}`), 404, 'NOT_FOUND');
    const theirs = (await call('branch.manager', 'GET', '/staff/departments')).json().data.map((d: { branchId: string }) => d.branchId);
    expect(new Set(theirs)).toEqual(new Set([HEAD_OFFICE]));
    // Deleting a department is the executive managers'.
    expectError(await call('branch.manager', 'DELETE', `/staff/departments/${id}`), 403, 'NOT_PERMITTED');
    expect((await call('exec', 'DELETE', `/staff/departments/${id}`)).statusCode).toBe(200);
  });

  it('shows a level officer and a head of department only their own department', async () => {
    for (const who of ['officer', 'head.sales']) {
      const list = (await call(who, 'GET', '/staff/departments')).json();
      expect(list.data.map((d: { id: string }) => d.id)).toEqual([RETAIL_SALES]);
      expectError(await call(who, 'GET', `/staff/departments/${CLAIMS}`), 404, 'NOT_FOUND');
    }
  });
});

describe('staff members', () => {
  const newMember = (overrides: Record<string, unknown> = {}) => ({
    email: `member.${randomUUID().slice(0, 8)}@sandbox.coverline.example`, firstName: 'Kwame', lastName: 'Boateng',
    position: 'LEVEL_OFFICER', departmentId: RETAIL_SALES, ...overrides,
  });

  it('adds a staff member with every field, NORMAL_STAFF by default, who logs in with the first password', async () => {
    const body = newMember({
      phoneNumber: '+233209876543', otherNames: 'Yaw', jobTitle: 'Sales Officer', address: '22 Liberation Road, Accra',
      staffNo: 'SBX-100', gender: 'MALE', dateOfBirth: '1994-09-30', password: 'Welcome-2026!',
    });
    const res = await call('exec', 'POST', '/staff/members', body);
    expect(res.statusCode).toBe(201);
    const member = res.json().data;
    expect(member).toMatchObject({
      email: body.email, phoneNumber: '+233209876543', firstName: 'Kwame', otherNames: 'Yaw', lastName: 'Boateng',
      fullName: 'Kwame Yaw Boateng', isActive: true, type: 'NORMAL_STAFF', jobTitle: 'Sales Officer', position: 'LEVEL_OFFICER',
      address: '22 Liberation Road, Accra', staffNo: 'SBX-100', gender: 'MALE', dateOfBirth: '1994-09-30',
      department: { id: RETAIL_SALES, branch: { id: HEAD_OFFICE } },
    });
    expect(member).not.toHaveProperty('password');
    const row = await h.db.selectFrom('staff').selectAll().where('id', '=', member.id).executeTakeFirstOrThrow();
    expect(row.created_by_staff_id).toBe(sandboxStaff('exec').id);
    expect((await login(body.email, 'Welcome-2026!')).statusCode).toBe(200);
    expect((await call('exec', 'GET', `/staff/members/${member.id}`)).json().data).toEqual(member);
  });

  it('without a password, sends a code with which the new member sets one through the staff reset', async () => {
    const body = newMember({ type: 'AGENT' });
    const res = await call('exec', 'POST', '/staff/members', body);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.type).toBe('AGENT');
    expect((await login(body.email, 'anything-at-all')).statusCode).toBe(401);
    const code = await codeSentTo(h, body.email, 'staff-welcome');
    const reset = await h.call({
      method: 'POST', url: '/api/v1/staff/auth/password/reset',
      payload: { username: body.email, resetCode: code, password: 'My-Own-Pass-1', passwordConfirm: 'My-Own-Pass-1' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(body.email, 'My-Own-Pass-1')).statusCode).toBe(200);
  });

  it('adds an executive manager without a department, and nobody else', async () => {
    const exec = await call('exec', 'POST', '/staff/members', newMember({ position: 'EXECUTIVE_MANAGER', departmentId: undefined }));
    expect(exec.statusCode).toBe(201);
    expect(exec.json().data.department).toBeNull();
    expectError(await call('exec', 'POST', '/staff/members', newMember({ departmentId: undefined })), 400, 'VALIDATION_ERROR',
      'body.departmentId is required unless body.position is EXECUTIVE_MANAGER');
  });

  it('refuses an email (any case), phone number or staff number another staff member has: 409 naming the field', async () => {
    const officer = sandboxStaff('officer');
    expectError(await call('exec', 'POST', '/staff/members', newMember({ email: officer.email.toUpperCase() })), 409, 'EMAIL_TAKEN', /^body\.email /);
    expectError(await call('exec', 'POST', '/staff/members', newMember({ phoneNumber: officer.phoneNumber })), 409, 'PHONE_NUMBER_TAKEN', /^body\.phoneNumber /);
    expectError(await call('exec', 'POST', '/staff/members', newMember({ staffNo: 'SBX-005' })), 409, 'STAFF_NO_TAKEN', /^body\.staffNo /);
    const { id } = (await call('exec', 'POST', '/staff/members', newMember())).json().data;
    expectError(await call('exec', 'PATCH', `/staff/members/${id}`, { email: officer.email }), 409, 'EMAIL_TAKEN', /^body\.email /);
    expectError(await call('exec', 'PATCH', `/staff/members/${id}`, { phoneNumber: officer.phoneNumber }), 409, 'PHONE_NUMBER_TAKEN');
    expectError(await call('exec', 'PATCH', `/staff/members/${id}`, { staffNo: 'SBX-005' }), 409, 'STAFF_NO_TAKEN');
    // Another tenant's staff do not count.
    expect((await call('exec', 'POST', '/staff/members', newMember({ email: 'someone@other-tenant.example' }))).statusCode).toBe(201);
  });

  it.each([
    [{ email: 'not-an-email' }, 'body.email must match format "email"'],
    [{ firstName: '' }, 'body.firstName must NOT have fewer than 1 characters'],
    [{ lastName: 'x'.repeat(101) }, 'body.lastName must NOT have more than 100 characters'],
    [{ phoneNumber: '+23320' }, 'body.phoneNumber must NOT have fewer than 10 characters'],
    [{ phoneNumber: '+2332012345678901' }, 'body.phoneNumber must NOT have more than 15 characters'],
    [{ staffNo: 'S' }, 'body.staffNo must NOT have fewer than 2 characters'],
    [{ position: 'CEO' }, 'body.position must be one of: LEVEL_OFFICER, HEAD_OF_DEPARTMENT, BRANCH_MANAGER, EXECUTIVE_MANAGER'],
    [{ type: 'CONTRACTOR' }, 'body.type must be one of: AGENT, NORMAL_STAFF'],
    [{ gender: 'X' }, 'body.gender must be one of: MALE, FEMALE, OTHER'],
    [{ dateOfBirth: '30-09-1994' }, 'body.dateOfBirth must match format "date"'],
    [{ password: 'short-7' }, 'body.password must NOT have fewer than 8 characters'],
    [{ password: 'x'.repeat(129) }, 'body.password must NOT have more than 128 characters'],
    [{ departmentId: 'retail' }, 'body.departmentId must match format "uuid"'],
    [{ isActive: false }, "body has an unknown property 'isActive'"],
  ])('validates a new staff member: %j', async (overrides, message) => {
    const res = await call('exec', 'POST', '/staff/members', newMember(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('validates required fields and a change', async () => {
    for (const field of ['email', 'firstName', 'lastName', 'position']) {
      const res = await call('exec', 'POST', '/staff/members', newMember({ [field]: undefined }));
      expect(res.json().message).toBe(`body.${field} is required`);
    }
    const officer = sandboxStaff('officer').id;
    expect((await call('exec', 'PATCH', `/staff/members/${officer}`, {})).json().message).toBe('body must NOT have fewer than 1 properties');
    expect((await call('exec', 'PATCH', `/staff/members/${officer}`, { staffNo: 'S' })).json().message).toBe('body.staffNo must NOT have fewer than 2 characters');
    expectError(await call('exec', 'PATCH', `/staff/members/${officer}`, { departmentId: null }), 400, 'VALIDATION_ERROR', /^body\.departmentId is required/);
    expectError(await call('exec', 'POST', '/staff/members', newMember({ departmentId: randomUUID() })), 404, 'NOT_FOUND', 'Department not found (body.departmentId)');
    expectError(await call('exec', 'POST', '/staff/members', newMember({ departmentId: other.department })), 404, 'NOT_FOUND', 'Department not found (body.departmentId)');
  });

  it('updates a member (clearing nullable fields, moving department), recording who', async () => {
    const { id } = (await call('exec', 'POST', '/staff/members', newMember({ jobTitle: 'Clerk', staffNo: 'SBX-200' }))).json().data;
    const res = await call('branch.manager', 'PATCH', `/staff/members/${id}`, { jobTitle: null, staffNo: null, position: 'HEAD_OF_DEPARTMENT', departmentId: CLAIMS, type: 'AGENT' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, jobTitle: null, staffNo: null, position: 'HEAD_OF_DEPARTMENT', type: 'AGENT', department: { id: CLAIMS } });
    const row = await h.db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.updated_by_staff_id).toBe(sandboxStaff('branch.manager').id);
    // Fields left out stay as they are: the type is not reset to its default.
    expect((await call('exec', 'PATCH', `/staff/members/${id}`, { jobTitle: 'Claims Lead' })).json().data).toMatchObject({ type: 'AGENT', jobTitle: 'Claims Lead' });
  });

  it('lists with filters, search and pages, within the caller\'s reach', async () => {
    const all = (await call('exec', 'GET', '/staff/members?limit=500')).json();
    expect(all.data.length).toBe(all.paginator.itemsCount);
    const names = all.data.map((s: { lastName: string; firstName: string }) => `${s.lastName} ${s.firstName}`);
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));

    const ids = async (who: string, query: string) => (await call(who, 'GET', `/staff/members?limit=500&${query}`)).json().data.map((s: { id: string }) => s.id);
    expect(await ids('exec', 'type=AGENT')).toContain(sandboxStaff('agent').id);
    expect((await call('exec', 'GET', '/staff/members?type=AGENT&limit=500')).json().data.every((s: { type: string }) => s.type === 'AGENT')).toBe(true);
    expect(await ids('exec', 'position=EXECUTIVE_MANAGER')).toContain(sandboxStaff('exec').id);
    expect(await ids('exec', `departmentId=${CLAIMS}`)).toContain(sandboxStaff('head.claims').id);
    expect(await ids('exec', `departmentId=${CLAIMS}`)).not.toContain(sandboxStaff('officer').id);
    expect(await ids('exec', `branchId=${kumasi.branch}`)).toEqual([kumasi.officer]);
    expect(await ids('exec', 'search=KUMASI')).toEqual([kumasi.officer]);
    expect(await ids('exec', 'search=yaw%20mensah')).toEqual([kumasi.officer]);
    expect(await ids('exec', 'search=%25')).toEqual([]);
    expect(await ids('exec', 'isActive=false')).not.toContain(sandboxStaff('officer').id);
    expect(await ids('exec', 'isActive=true')).toContain(sandboxStaff('officer').id);
    const page2 = (await call('exec', 'GET', '/staff/members?limit=2&page=2')).json();
    expect(page2.paginator).toMatchObject({ page: 2, limit: 2, offset: 2, hasPrevPage: true });
    expect(page2.data).toEqual(all.data.slice(2, 4));
    expect((await call('exec', 'GET', '/staff/members?isActive=maybe')).json().message).toBe('query.isActive must be boolean');
    expect((await call('exec', 'GET', '/staff/members?position=CEO')).statusCode).toBe(400);

    // A branch manager sees their branch's staff, an officer their department's.
    const branchManagers = await ids('branch.manager', '');
    expect(branchManagers).toEqual(expect.arrayContaining([sandboxStaff('officer').id, sandboxStaff('head.claims').id]));
    expect(branchManagers).not.toContain(kumasi.officer);
    expect(branchManagers).not.toContain(sandboxStaff('exec').id);
    const officers = await ids('officer', '');
    expect(officers).toContain(sandboxStaff('head.sales').id);
    expect(officers).not.toContain(sandboxStaff('head.claims').id);
    expect(await ids('officer', `departmentId=${CLAIMS}`)).toEqual([]);
  });

  it('answers a member out of reach, of another tenant or unknown with 404', async () => {
    for (const id of [other.member, randomUUID()]) {
      for (const [method, suffix, payload] of [['GET', '', undefined], ['PATCH', '', { jobTitle: 'x' }], ['POST', '/deactivate', undefined], ['POST', '/activate', undefined]] as const) {
        expectError(await call('exec', method, `/staff/members/${id}${suffix}`, payload), 404, 'NOT_FOUND', 'Staff member not found');
      }
    }
    expectError(await call('branch.manager', 'GET', `/staff/members/${kumasi.officer}`), 404, 'NOT_FOUND');
    expectError(await call('branch.manager', 'PATCH', `/staff/members/${kumasi.officer}`, { jobTitle: 'x' }), 404, 'NOT_FOUND');
    expectError(await call('branch.manager', 'POST', `/staff/members/${kumasi.officer}/deactivate`), 404, 'NOT_FOUND');
    expectError(await call('branch.manager', 'GET', `/staff/members/${sandboxStaff('exec').id}`), 404, 'NOT_FOUND');
    expectError(await call('officer', 'GET', `/staff/members/${sandboxStaff('head.claims').id}`), 404, 'NOT_FOUND');
    expect((await call('officer', 'GET', `/staff/members/${sandboxStaff('head.sales').id}`)).statusCode).toBe(200);
  });

  it('keeps a branch manager to staff below branch manager, in their own branch', async () => {
    for (const position of ['BRANCH_MANAGER', 'EXECUTIVE_MANAGER']) {
      expectError(await call('branch.manager', 'POST', '/staff/members', newMember({ position })), 403, 'NOT_PERMITTED', /body\.position/);
    }
    expectError(await call('branch.manager', 'POST', '/staff/members', newMember({ departmentId: kumasi.department })), 404, 'NOT_FOUND', 'Department not found (body.departmentId)');
    const created = await call('branch.manager', 'POST', '/staff/members', newMember({ position: 'HEAD_OF_DEPARTMENT', departmentId: CLAIMS }));
    expect(created.statusCode).toBe(201);
    const { id } = created.json().data;
    expectError(await call('branch.manager', 'PATCH', `/staff/members/${id}`, { position: 'BRANCH_MANAGER' }), 403, 'NOT_PERMITTED', /body\.position/);
    expectError(await call('branch.manager', 'PATCH', `/staff/members/${id}`, { departmentId: kumasi.department }), 404, 'NOT_FOUND', 'Department not found (body.departmentId)');
    // Another branch manager of the same branch is the executive managers' to manage.
    const peer = (await call('exec', 'POST', '/staff/members', newMember({ position: 'BRANCH_MANAGER' }))).json().data.id;
    expectError(await call('branch.manager', 'PATCH', `/staff/members/${peer}`, { jobTitle: 'Co-manager' }), 403, 'NOT_PERMITTED');
    expectError(await call('branch.manager', 'POST', `/staff/members/${peer}/deactivate`), 403, 'NOT_PERMITTED');
    expect((await call('exec', 'PATCH', `/staff/members/${peer}`, { jobTitle: 'Co-manager' })).statusCode).toBe(200);
    // A branch manager changes their own details, but not their own position.
    const self = sandboxStaff('branch.manager').id;
    expect((await call('branch.manager', 'PATCH', `/staff/members/${self}`, { jobTitle: 'Branch Manager, Accra' })).json().data.jobTitle).toBe('Branch Manager, Accra');
    expectError(await call('branch.manager', 'PATCH', `/staff/members/${self}`, { position: 'LEVEL_OFFICER' }), 403, 'OWN_ACCOUNT', /own position/);
  });

  it('lets nobody change their own position or deactivate themselves', async () => {
    const self = sandboxStaff('exec').id;
    expectError(await call('exec', 'PATCH', `/staff/members/${self}`, { position: 'BRANCH_MANAGER' }), 403, 'OWN_ACCOUNT', 'Nobody may change their own position (body.position): ask a manager above you');
    expectError(await call('exec', 'POST', `/staff/members/${self}/deactivate`), 403, 'OWN_ACCOUNT', 'Nobody may deactivate themselves: ask another manager');
    // The same position again changes nothing and is allowed.
    expect((await call('exec', 'PATCH', `/staff/members/${self}`, { position: 'EXECUTIVE_MANAGER' })).statusCode).toBe(200);
  });

  it('deactivates: the old token answers 401, login is refused, reset codes die; activation lets them log in again', async () => {
    const body = newMember({ password: 'Before-Deactivation-1' });
    const { id } = (await call('exec', 'POST', '/staff/members', body)).json().data;
    const token = (await login(body.email, 'Before-Deactivation-1')).json().data.accessToken;
    expect((await call(token, 'GET', '/staff/me')).statusCode).toBe(200);
    expect((await h.call({ method: 'POST', url: '/api/v1/staff/auth/password/request-reset', payload: { username: body.email } })).statusCode).toBe(200);
    const code = await codeSentTo(h, body.email);

    const res = await call('branch.manager', 'POST', `/staff/members/${id}/deactivate`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, isActive: false });
    const row = await h.db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ is_active: false, session_version: 2, updated_by_staff_id: sandboxStaff('branch.manager').id });
    expectError(await call(token, 'GET', '/staff/me'), 401, 'INVALID_TOKEN');
    expectError(await login(body.email, 'Before-Deactivation-1'), 401, 'INVALID_CREDENTIALS');
    const live = await h.db.selectFrom('password_reset_codes').select('id').where('staff_id', '=', id).where('consumed_at', 'is', null).execute();
    expect(live).toEqual([]);
    // Again: nothing changes.
    expect((await call('exec', 'POST', `/staff/members/${id}/deactivate`)).json().data.isActive).toBe(false);
    expect((await call('exec', 'GET', `/staff/members?isActive=false`)).json().data.map((s: { id: string }) => s.id)).toContain(id);

    const activated = await call('exec', 'POST', `/staff/members/${id}/activate`);
    expect(activated.json().data).toMatchObject({ id, isActive: true });
    expectError(await call(token, 'GET', '/staff/me'), 401, 'INVALID_TOKEN');
    const reset = await h.call({
      method: 'POST', url: '/api/v1/staff/auth/password/reset',
      payload: { username: body.email, resetCode: code, password: 'After-Activation-1', passwordConfirm: 'After-Activation-1' },
    });
    expectError(reset, 400, 'INVALID_RESET_CODE');
    expect((await login(body.email, 'Before-Deactivation-1')).statusCode).toBe(200);
  });
});

describe('who may call', () => {
  it('answers a client token on every organisation call with 403 WRONG_TOKEN_KIND', async () => {
    const { token } = await signUp(h);
    for (const [method, url] of [['GET', '/staff/branches'], ['POST', '/staff/branches'], ['GET', `/staff/departments/${RETAIL_SALES}`],
      ['POST', '/staff/members'], ['POST', `/staff/members/${sandboxStaff('officer').id}/deactivate`]] as const) {
      expectError(await call(token, method, url, method === 'POST' ? {} : undefined), 403, 'WRONG_TOKEN_KIND');
    }
  });

  it('refuses writes to those the table does not let make them (403 NOT_PERMITTED), before validation', async () => {
    expectError(await call('branch.manager', 'POST', '/staff/branches', { name: 'Mine' }), 403, 'NOT_PERMITTED', 'A BRANCH_MANAGER (NORMAL_STAFF) may not create a branch');
    expectError(await call('officer', 'POST', '/staff/members', {}), 403, 'NOT_PERMITTED');
    expectError(await call('head.sales', 'PATCH', `/staff/members/${sandboxStaff('officer').id}`, { jobTitle: 'x' }), 403, 'NOT_PERMITTED');
    expectError(await call('agent', 'GET', '/staff/members'), 403, 'NOT_PERMITTED');
  });

  it('answers 401 without a token, and with another tenant\'s key', async () => {
    expectError(await h.call({ method: 'GET', url: '/api/v1/staff/branches' }), 401, 'MISSING_TOKEN');
    expectError(await h.call({ method: 'GET', url: '/api/v1/staff/branches', token: tokens.exec, apiKey: h.otherApiKey }), 401, 'INVALID_TOKEN');
  });

  it('still signs in the sandbox staff with the documented password', async () => {
    expect((await login(sandboxStaff('head.claims').email, SANDBOX_STAFF_PASSWORD)).statusCode).toBe(200);
  });
});
