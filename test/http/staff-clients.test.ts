import { createHarness, type Harness } from '../helpers/harness.js';
import { corporateBody as signUpCorporate, individualBody as signUpIndividual, setOwnPassword, signUp, staffClientBody } from '../helpers/clients.js';
import { sandboxDepartment, sandboxStaff, staffSession } from '../helpers/staff.js';

/**
 * Clients by staff: opening accounts (individual and corporate, never with a password: the client sets its own), the
 * list and its filters, a client by id, profile changes and reassignment, deactivation and
 * reactivation; each within the caller's reach (an agent its own clients, an officer its
 * department's and the self-signed-up ones, a branch manager its branch's, an executive all).
 */

let h: Harness;
let tokens: Record<'exec' | 'branchManager' | 'headSales' | 'officer' | 'agent', string>;
/** A staff member of another branch (made here: the sandbox has one branch), and a token of theirs. */
let elsewhere: { id: string; token: string };

const STAFF = {
  exec: sandboxStaff('exec'), branchManager: sandboxStaff('branch.manager'), headSales: sandboxStaff('head.sales'),
  officer: sandboxStaff('officer'), agent: sandboxStaff('agent'),
};
const ref = (member: { id: string; email: string; firstName: string; lastName: string }) =>
  ({ id: member.id, fullName: `${member.firstName} ${member.lastName}`, email: member.email });

beforeAll(async () => {
  h = await createHarness();
  tokens = {
    exec: (await staffSession(h, 'exec')).token, branchManager: (await staffSession(h, 'branch.manager')).token,
    headSales: (await staffSession(h, 'head.sales')).token, officer: (await staffSession(h, 'officer')).token,
    agent: (await staffSession(h, 'agent')).token,
  };
  const branch = await h.db.insertInto('branches').values({ tenant_id: h.tenantId, name: 'Kumasi Branch' }).returning('id').executeTakeFirstOrThrow();
  const department = await h.db.insertInto('departments').values({ tenant_id: h.tenantId, branch_id: branch.id, name: 'Kumasi Sales' })
    .returning('id').executeTakeFirstOrThrow();
  const member = await h.db.insertInto('staff').values({
    tenant_id: h.tenantId, email: 'kumasi.officer@sandbox.coverline.example', first_name: 'Yaa', last_name: 'Amponsah',
    position: 'LEVEL_OFFICER', department_id: department.id,
  }).returning(['id', 'session_version']).executeTakeFirstOrThrow();
  const { token } = await h.app.services.signStaffAccessToken({ tenantId: h.tenantId, staffId: member.id, sessionVersion: member.session_version });
  elsewhere = { id: member.id, token };
});
afterAll(async () => { await h.close(); });

const create = (token: string, payload: object) => h.call({ method: 'POST', url: '/api/v1/staff/clients', token, payload });
const get = (token: string, id: string, apiKey?: string) => h.call({ method: 'GET', url: `/api/v1/staff/clients/${id}`, token, apiKey });
const list = (token: string, query = '') =>
  h.call({ method: 'GET', url: `/api/v1/staff/clients?${query.includes('limit=') ? '' : 'limit=500'}${query}`, token });
const update = (token: string, id: string, payload: object) => h.call({ method: 'PATCH', url: `/api/v1/staff/clients/${id}`, token, payload });
const deactivate = (token: string, id: string, payload: object = { reason: 'Duplicate account of an existing client' }) =>
  h.call({ method: 'POST', url: `/api/v1/staff/clients/${id}/deactivate`, token, payload });
const activate = (token: string, id: string) => h.call({ method: 'POST', url: `/api/v1/staff/clients/${id}/activate`, token });
const clientLogin = (username: string, password: string) => h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });

/** A client opened by `token`'s staff member; answers its view. */
async function opened(token: string, body: Record<string, unknown> = individualBody()) {
  const res = await create(token, body);
  if (res.statusCode !== 201) throw new Error(`staff create failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}
/** Staff's bodies: a sign-up's without the password (since 1.2). */
const individualBody = (overrides: Record<string, unknown> = {}) => staffClientBody(signUpIndividual(overrides));
const corporateBody = (overrides: Record<string, unknown> = {}) => staffClientBody(signUpCorporate(overrides));
const idsOf = (res: { json(): any }) => (res.json().data as { id: string }[]).map((c) => c.id);

describe('createStaffClient: POST /staff/clients', () => {
  it('opens an individual with an identification card, created by and credited to the caller', async () => {
    const body = individualBody({
      title: 'Mr', gender: 'MALE', dateOfBirth: '1990-06-21', city: 'Accra',
      identificationCard: { idNumber: 'GHA-721234567-8', type: 'GHANA_CARD', issueDate: '2021-03-15', expiryDate: '2031-03-14' },
    });
    const res = await create(tokens.agent, body);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      type: 'INDIVIDUAL', fullName: 'Kofi Atta Mensah', email: body.email, isActive: true, city: 'Accra',
      identificationCard: (body as Record<string, unknown>).identificationCard, createdBy: ref(STAFF.agent), originatingStaff: ref(STAFF.agent), deactivation: null,
    });
    expect(data).not.toHaveProperty('password');
    // The client's own account names the staff member too.
    const token = (await clientLogin(body.email as string, await setOwnPassword(h, body.email as string))).json().data.accessToken;
    const own = (await h.call({ method: 'GET', url: '/api/v1/client/account', token })).json().data;
    expect({ createdBy: own.createdBy, originatingStaff: own.originatingStaff }).toEqual({ createdBy: STAFF.agent.id, originatingStaff: STAFF.agent.id });
  });

  it('opens a company with contact persons, credited to a staff member of the caller\'s reach', async () => {
    const body = corporateBody({
      dateOfIncorporation: '2012-09-01', originatingStaffId: STAFF.officer.id,
      contactPersons: [
        { name: 'Ama Owusu', position: 'Finance Manager', phoneNumber: '+233209876543', email: 'ama@example.com' },
        { name: 'Kwame Ofori', position: 'Director', phoneNumber: '+233209876544', email: 'kwame@example.com' },
      ],
    });
    const data = await opened(tokens.headSales, body);
    expect(data).toMatchObject({
      type: 'CORPORATE', companyName: 'Asante Logistics Ltd', fullName: 'Asante Logistics Ltd', contactPersons: body.contactPersons,
      firstName: null, identificationCard: null, createdBy: ref(STAFF.headSales), originatingStaff: ref(STAFF.officer),
    });
  });

  it('lets only a reach that covers them name another originating staff member', async () => {
    const agentNamesOfficer = await create(tokens.agent, individualBody({ originatingStaffId: STAFF.officer.id }));
    expect(agentNamesOfficer.statusCode).toBe(403);
    expect(agentNamesOfficer.json()).toMatchObject({ code: 'NOT_PERMITTED', message: expect.stringContaining('body.originatingStaffId') });
    const officerNamesOtherBranch = await create(tokens.officer, individualBody({ originatingStaffId: elsewhere.id }));
    expect(officerNamesOtherBranch.statusCode).toBe(404);
    expect(officerNamesOtherBranch.json().message).toContain('body.originatingStaffId');
    const unknown = await create(tokens.exec, individualBody({ originatingStaffId: '00000000-0000-4000-8000-000000000000' }));
    expect(unknown.statusCode).toBe(404);
    const execNamesOtherBranch = await create(tokens.exec, individualBody({ originatingStaffId: elsewhere.id }));
    expect(execNamesOtherBranch.statusCode).toBe(201);
    expect(execNamesOtherBranch.json().data.originatingStaff).toMatchObject({ id: elsewhere.id, fullName: 'Yaa Amponsah' });
  });

  it('sends a code the client sets its own password with, then logs in', async () => {
    const body = individualBody();
    const data = await opened(tokens.officer, body);
    expect((await clientLogin(body.email, 'anything-at-all')).statusCode).toBe(401);
    // Sent with the welcome, in the account's transaction.
    const message = await h.db.selectFrom('outbox').selectAll().where('recipient', '=', body.email).where('template', '=', 'set-password-code')
      .executeTakeFirstOrThrow();
    expect(message.body).toContain(body.email);
    const resetCode = /code is (\d{6})/.exec(message.body)![1];
    const reset = await h.call({
      method: 'POST', url: '/api/v1/auth/password/reset',
      payload: { username: body.email, resetCode, password: 'n3w-Client-Pass', passwordConfirm: 'n3w-Client-Pass' },
    });
    expect(reset.statusCode).toBe(200);
    const login = await clientLogin(body.email, 'n3w-Client-Pass');
    expect(login.statusCode).toBe(200);
    expect(login.json().data.id).toBe(data.id);
  });

  it('refuses a taken email or phone number with 409', async () => {
    const first = individualBody();
    await opened(tokens.exec, first);
    const email = await create(tokens.exec, individualBody({ email: (first.email as string).toUpperCase() }));
    expect(email.statusCode).toBe(409);
    expect(email.json()).toMatchObject({ code: 'EMAIL_TAKEN', error: 'Conflict' });
    const phone = await create(tokens.exec, individualBody({ phoneNumber: first.phoneNumber }));
    expect(phone.statusCode).toBe(409);
    expect(phone.json()).toMatchObject({ code: 'PHONE_NUMBER_TAKEN' });
    const signedUp = await signUp(h);
    expect((await create(tokens.exec, individualBody({ email: signedUp.body.email }))).json().code).toBe('EMAIL_TAKEN');
  });

  const long = (n: number) => 'x'.repeat(n);
  const card = { idNumber: 'GHA-721234567-8', type: 'GHANA_CARD', issueDate: '2021-03-15' };
  const person = { name: 'Ama', position: 'CFO', phoneNumber: '+233209876543', email: 'ama@example.com' };
  it.each([
    ['firstName', individualBody({ firstName: '' })],
    ['firstName', individualBody({ firstName: long(81) })],
    ['lastName', individualBody({ lastName: long(81) })],
    ['otherNames', individualBody({ otherNames: long(121) })],
    ['title', individualBody({ title: long(21) })],
    ['gender', individualBody({ gender: 'UNKNOWN' })],
    ['dateOfBirth', individualBody({ dateOfBirth: '2999-01-01' })],
    ['identificationCard.type', individualBody({ identificationCard: { ...card, type: 'LIBRARY_CARD' } })],
    ['identificationCard.idNumber', individualBody({ identificationCard: { ...card, idNumber: 'x' } })],
    ['identificationCard.issueDate', individualBody({ identificationCard: { ...card, issueDate: '2999-01-01' } })],
    ['identificationCard.expiryDate', individualBody({ identificationCard: { ...card, expiryDate: '2020-01-01' } })],
    ['companyName', corporateBody({ companyName: long(201) })],
    ['dateOfIncorporation', corporateBody({ dateOfIncorporation: '2999-01-01' })],
    ['contactPersons', corporateBody({ contactPersons: Array.from({ length: 21 }, () => person) })],
    ['contactPersons[0].email', corporateBody({ contactPersons: [{ ...person, email: 'not-an-email' }] })],
    ['contactPersons[0]', corporateBody({ contactPersons: [{ name: 'Ama' }] })],
    ['email', individualBody({ email: 'not-an-email' })],
    ['phoneNumber', individualBody({ phoneNumber: '12' })],
    ['password', { ...individualBody(), password: 'Chosen-By-Staff-1' }],
    ['password', { ...corporateBody(), password: 'Chosen-By-Staff-1' }],
    ['country', individualBody({ country: 'ZZ' })],
    ['country', individualBody({ country: 'ghana' })],
    ['city', individualBody({ city: long(121) })],
    ['region', individualBody({ region: long(121) })],
    ['digitalAddress', individualBody({ digitalAddress: long(21) })],
    ['address', individualBody({ address: long(301) })],
    ['industry', individualBody({ industry: long(121) })],
    ['notes', individualBody({ notes: long(2001) })],
    ['groups', individualBody({ groups: Array.from({ length: 51 }, (_, i) => `g${i}`) })],
    ['taxpayerIdentificationNumber', individualBody({ taxpayerIdentificationNumber: long(31) })],
    ['originatingStaffId', individualBody({ originatingStaffId: 'not-a-uuid' })],
    ['companyName', individualBody({ companyName: 'A person with a company name' })],
    ['email or', individualBody({ email: undefined, phoneNumber: undefined })],
  ])('answers 400 naming %s', async (field, body) => {
    const res = await create(tokens.exec, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.json().message).toContain(field);
  });
});

describe('who sees which clients', () => {
  let own: { agent: string; officer: string; selfSigned: string; otherBranch: string; otherTenant: string };
  beforeAll(async () => {
    own = {
      agent: (await opened(tokens.agent)).id,
      officer: (await opened(tokens.officer)).id,
      selfSigned: (await signUp(h)).account.id,
      otherBranch: (await opened(elsewhere.token)).id,
      otherTenant: (await signUp(h, signUpIndividual(), h.otherApiKey)).account.id,
    };
  });

  const cases: [keyof typeof tokens | 'elsewhere', (keyof typeof own)[], (keyof typeof own)[]][] = [
    ['agent', ['agent'], ['officer', 'selfSigned', 'otherBranch', 'otherTenant']],
    ['officer', ['agent', 'officer', 'selfSigned'], ['otherBranch', 'otherTenant']],
    ['headSales', ['agent', 'officer', 'selfSigned'], ['otherBranch', 'otherTenant']],
    ['branchManager', ['agent', 'officer', 'selfSigned'], ['otherBranch', 'otherTenant']],
    ['elsewhere', ['otherBranch', 'selfSigned'], ['agent', 'officer', 'otherTenant']],
    ['exec', ['agent', 'officer', 'selfSigned', 'otherBranch'], ['otherTenant']],
  ];
  it.each(cases)('%s sees %j, and not %j (absent from the list, 404 by id)', async (who, seen, unseen) => {
    const token = who === 'elsewhere' ? elsewhere.token : tokens[who];
    const listed = idsOf(await list(token));
    for (const name of seen) {
      expect({ name, listed: listed.includes(own[name]) }).toEqual({ name, listed: true });
      expect((await get(token, own[name])).statusCode).toBe(200);
    }
    for (const name of unseen) {
      expect({ name, listed: listed.includes(own[name]) }).toEqual({ name, listed: false });
      const res = await get(token, own[name]);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, requestId: expect.any(String), message: 'Client not found', error: 'Not Found', code: 'NOT_FOUND' });
    }
    for (const name of unseen) {
      expect((await update(token, own[name], { city: 'Tamale' })).statusCode).toBe(404);
    }
  });

  it('refuses a client token (403 WRONG_TOKEN_KIND) and a staff token with another tenant\'s key (401)', async () => {
    const { token } = await signUp(h);
    for (const res of [await list(token), await get(token, own.agent), await create(token, individualBody())]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('WRONG_TOKEN_KIND');
    }
    expect((await get(tokens.exec, own.agent, h.otherApiKey)).statusCode).toBe(401);
  });

  it('leaves deactivation to heads of department and above (403 NOT_PERMITTED)', async () => {
    for (const token of [tokens.agent, tokens.officer]) {
      const res = await deactivate(token, own.agent);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('NOT_PERMITTED');
      expect((await activate(token, own.agent)).statusCode).toBe(403);
    }
  });
});

describe('updateStaffClient: PATCH /staff/clients/{id}', () => {
  it('changes profile fields as the client\'s own update does, and refuses fields of the other type', async () => {
    const client = await opened(tokens.agent);
    const res = await update(tokens.agent, client.id, {
      city: 'Kumasi', otherNames: null, identificationCard: { idNumber: 'P1234567', type: 'PASSPORT', issueDate: '2020-01-01' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      city: 'Kumasi', otherNames: null, fullName: 'Kofi Mensah', identificationCard: { idNumber: 'P1234567', type: 'PASSPORT' },
      createdBy: ref(STAFF.agent), originatingStaff: ref(STAFF.agent),
    });
    const wrongType = await update(tokens.agent, client.id, { companyName: 'Not a company' });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toBe('body.companyName applies to CORPORATE clients only');
    const bound = await update(tokens.agent, client.id, { city: 'x'.repeat(121) });
    expect(bound.statusCode).toBe(400);
    expect(bound.json().message).toContain('city');
    expect((await update(tokens.agent, client.id, {})).statusCode).toBe(400);
    expect((await update(tokens.agent, client.id, { email: 'new@example.com' })).statusCode).toBe(400);
  });

  it('reassigns a client within the manager\'s reach; an agent may not', async () => {
    const client = await opened(tokens.agent);
    const byAgent = await update(tokens.agent, client.id, { originatingStaffId: STAFF.officer.id });
    expect(byAgent.statusCode).toBe(403);
    expect(byAgent.json().code).toBe('NOT_PERMITTED');
    const outOfReach = await update(tokens.headSales, client.id, { originatingStaffId: elsewhere.id });
    expect(outOfReach.statusCode).toBe(404);
    const res = await update(tokens.headSales, client.id, { originatingStaffId: STAFF.officer.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ originatingStaff: ref(STAFF.officer), createdBy: ref(STAFF.agent) });
    // The agent no longer reaches it.
    expect((await get(tokens.agent, client.id)).statusCode).toBe(404);
  });
});

describe('deactivate and activate', () => {
  it('stops the client\'s logins and tokens, recording who, when and why; activation lets it log in again', async () => {
    const body = individualBody();
    const client = await opened(tokens.agent, body);
    const password = await setOwnPassword(h, body.email);
    const token = (await clientLogin(body.email, password)).json().data.accessToken;
    expect((await h.call({ method: 'GET', url: '/api/v1/client/account', token })).statusCode).toBe(200);

    expect((await deactivate(tokens.headSales, client.id, {})).statusCode).toBe(400);
    const short = await deactivate(tokens.headSales, client.id, { reason: 'no' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('reason');

    const res = await deactivate(tokens.headSales, client.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      isActive: false, deactivation: { by: ref(STAFF.headSales), reason: 'Duplicate account of an existing client', at: expect.any(String) },
    });
    expect((await h.call({ method: 'GET', url: '/api/v1/client/account', token })).statusCode).toBe(401);
    const login = await clientLogin(body.email, password);
    expect(login.statusCode).toBe(401);
    expect(login.json().code).toBe('ACCOUNT_DISABLED');
    expect((await deactivate(tokens.headSales, client.id)).json().code).toBe('CLIENT_ALREADY_INACTIVE');
    expect((await get(tokens.agent, client.id)).json().data.deactivation.reason).toBe('Duplicate account of an existing client');

    const back = await activate(tokens.exec, client.id);
    expect(back.statusCode).toBe(200);
    expect(back.json().data).toMatchObject({ isActive: true, deactivation: null });
    expect((await activate(tokens.exec, client.id)).json().code).toBe('CLIENT_ALREADY_ACTIVE');
    expect((await h.call({ method: 'GET', url: '/api/v1/client/account', token })).statusCode).toBe(401);
    expect((await clientLogin(body.email, password)).statusCode).toBe(200);
  });

  it('answers 404 for a client out of reach or of another tenant', async () => {
    const otherBranch = await opened(elsewhere.token);
    expect((await deactivate(tokens.headSales, otherBranch.id)).statusCode).toBe(404);
    expect((await activate(tokens.branchManager, otherBranch.id)).statusCode).toBe(404);
    const otherTenant = (await signUp(h, signUpIndividual(), h.otherApiKey)).account.id;
    expect((await deactivate(tokens.exec, otherTenant)).statusCode).toBe(404);
  });
});

describe('listStaffClients: GET /staff/clients filters', () => {
  let marked: { person: any; company: any; inactive: any; old: any };
  const tag = `flt${Date.now().toString(36)}`;
  beforeAll(async () => {
    marked = {
      person: await opened(tokens.officer, individualBody({ lastName: `Quaye${tag}` })),
      company: await opened(tokens.exec, corporateBody({ companyName: `${tag} Haulage Ltd`, originatingStaffId: STAFF.headSales.id })),
      inactive: await opened(tokens.exec, individualBody({ lastName: `Inactive${tag}` })),
      old: await opened(tokens.exec, individualBody({ lastName: `Old${tag}` })),
    };
    await deactivate(tokens.exec, marked.inactive.id);
    await h.db.updateTable('clients').set({ created_at: new Date('2026-01-15T12:00:00Z') as never }).where('id', '=', marked.old.id).execute();
  });

  it('search matches a name, an email or a phone number, ignoring case', async () => {
    expect(idsOf(await list(tokens.exec, `&search=QUAYE${tag}`))).toEqual([marked.person.id]);
    expect(idsOf(await list(tokens.exec, `&search=${tag}%20haulage`))).toEqual([marked.company.id]);
    expect(idsOf(await list(tokens.exec, `&search=${encodeURIComponent(marked.person.email.toUpperCase())}`))).toEqual([marked.person.id]);
    expect(idsOf(await list(tokens.exec, `&search=${encodeURIComponent(marked.company.phoneNumber)}`))).toEqual([marked.company.id]);
  });

  it('clientType, isActive and originatingStaffId narrow the list', async () => {
    const corporate = (await list(tokens.exec, '&clientType=CORPORATE')).json().data as any[];
    expect(corporate.length).toBeGreaterThan(0);
    expect(corporate.every((c) => c.type === 'CORPORATE')).toBe(true);
    expect(corporate.map((c) => c.id)).toContain(marked.company.id);
    expect(idsOf(await list(tokens.exec, '&clientType=INDIVIDUAL'))).not.toContain(marked.company.id);

    const inactive = idsOf(await list(tokens.exec, '&isActive=false'));
    expect(inactive).toContain(marked.inactive.id);
    expect(inactive).not.toContain(marked.person.id);
    expect(idsOf(await list(tokens.exec, '&isActive=true'))).not.toContain(marked.inactive.id);

    const headSales = (await list(tokens.exec, `&originatingStaffId=${STAFF.headSales.id}`)).json().data as any[];
    expect(headSales.map((c) => c.id)).toContain(marked.company.id);
    expect(headSales.every((c) => c.originatingStaff.id === STAFF.headSales.id)).toBe(true);
  });

  it('createdFrom and createdTo bound the creation day, both included, in either date form', async () => {
    expect(idsOf(await list(tokens.exec, `&search=${tag}&createdFrom=2026-01-15&createdTo=15-01-2026`))).toEqual([marked.old.id]);
    const since = idsOf(await list(tokens.exec, `&search=${tag}&createdFrom=2026-01-16`));
    expect(since).not.toContain(marked.old.id);
    expect(since).toContain(marked.person.id);
    expect(idsOf(await list(tokens.exec, `&search=${tag}&createdTo=2026-01-14`))).toEqual([]);
    const bad = await list(tokens.exec, '&createdFrom=2026-02-31');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('createdFrom');
  });

  it('pages newest first, and refuses a bad filter naming it', async () => {
    const res = await list(tokens.exec, `&search=${tag}&limit=2&page=1`);
    expect(res.json().paginator).toMatchObject({ itemsCount: 4, limit: 2, page: 1, pageCount: 2, hasNextPage: true });
    expect(res.json().data).toHaveLength(2);
    for (const query of ['&clientType=PERSON', '&isActive=maybe', '&originatingStaffId=nope']) {
      const bad = await list(tokens.exec, query);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain(query.slice(1).split('=')[0]);
    }
  });
});

describe('the sandbox organisation', () => {
  it('is what these tests assume: one branch whose Retail Sales department holds the agent, officer, head and branch manager', () => {
    const retail = sandboxDepartment('Retail Sales').id;
    expect([STAFF.agent, STAFF.officer, STAFF.headSales, STAFF.branchManager].map((s) => s.department)).toEqual([retail, retail, retail, retail]);
  });
});
