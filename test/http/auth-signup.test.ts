import { createHarness, type Harness } from '../helpers/harness.js';
import { corporateBody, individualBody, lastMessageTo, signUp } from '../helpers/clients.js';

let h: Harness;
beforeAll(async () => { h = await createHarness(); });
afterAll(async () => { await h.close(); });

const post = (payload: unknown, apiKey?: string | null) => h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: payload as object, apiKey });

async function expect400(payload: unknown, message: string | RegExp) {
  const res = await post(payload);
  expect(res.statusCode).toBe(400);
  const body = res.json();
  expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  expect(body.message).toMatch(message);
  return body;
}

describe('signUp: POST /auth/signup', () => {
  it('creates an individual and answers the account with a working token', async () => {
    const body = individualBody({ dateOfBirth: '1990-06-21', gender: 'MALE', title: 'Mr',
      identificationCard: { idNumber: 'GHA-7212', type: 'GHANA_CARD', issueDate: '2021-03-15', expiryDate: '2031-03-14' } });
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    const { statusCode, success, data } = res.json();
    expect(statusCode).toBe(201);
    expect(success).toBe(true);
    expect(data).toMatchObject({
      type: 'INDIVIDUAL', firstName: 'Kofi', lastName: 'Mensah', fullName: 'Kofi Atta Mensah', email: body.email,
      phoneNumber: body.phoneNumber, country: 'GH', groups: [], isActive: true, emailVerified: false, createdBy: null,
      originatingStaff: null, companyName: null, tokenType: 'Bearer', gender: 'MALE', dateOfBirth: '1990-06-21',
      identificationCard: { idNumber: 'GHA-7212', type: 'GHANA_CARD', issueDate: '2021-03-15', expiryDate: '2031-03-14' },
    });
    expect(data.age).toBeGreaterThanOrEqual(35);
    expect(data).not.toHaveProperty('password');
    expect(data).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(data)).not.toContain('argon2');
    const row = await h.db.selectFrom('clients').select(['password_hash', 'tenant_id']).where('id', '=', data.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(row.tenant_id).toBe(h.tenantId);
    // The token is accepted by an authenticated call.
    const logout = await h.call({ method: 'POST', url: '/api/v1/auth/logout', token: data.accessToken });
    expect(logout.statusCode).toBe(200);
    expect((await lastMessageTo(h, body.email))?.template).toBe('welcome');
  });

  it('creates a corporate client with contact persons', async () => {
    const res = await post(corporateBody({ dateOfIncorporation: '2012-09-01' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      type: 'CORPORATE', companyName: 'Asante Logistics Ltd', fullName: 'Asante Logistics Ltd', firstName: null,
      dateOfIncorporation: '2012-09-01', contactPersons: [{ name: 'Ama Owusu', position: 'Finance Manager' }],
    });
  });

  it('accepts a phone number alone and sends the welcome by SMS', async () => {
    const body = individualBody({ email: undefined });
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    expect((await lastMessageTo(h, body.phoneNumber))?.channel).toBe('sms');
  });

  describe('rejects what the seed forbids, naming the field', () => {
    it.each([
      ['a password under 5 characters', { password: 'abcd' }, /body\.password must NOT have fewer than 5 characters/],
      ['a password over 50 characters', { password: 'x'.repeat(51) }, /body\.password must NOT have more than 50/],
      ['a phone number under 10 characters', { phoneNumber: '+23324123' }, /body\.phoneNumber must NOT have fewer than 10/],
      ['a phone number over 15 characters', { phoneNumber: '+2332441234567890' }, /body\.phoneNumber must NOT have more than 15/],
      ['a phone number with letters', { phoneNumber: '02441234ab' }, /body\.phoneNumber must match pattern/],
      ['a malformed email', { email: 'not-an-email' }, /body\.email must match format "email"/],
      ['an idNumber under 2 characters', { identificationCard: { idNumber: 'X', type: 'PASSPORT', issueDate: '2020-01-01' } }, /body\.identificationCard\.idNumber must NOT have fewer than 2/],
      ['an identification card without issueDate', { identificationCard: { idNumber: 'P123', type: 'PASSPORT' } }, /body\.identificationCard\.issueDate is required/],
      ['an unknown identification type', { identificationCard: { idNumber: 'P123', type: 'LIBRARY_CARD', issueDate: '2020-01-01' } }, /body\.identificationCard\.type must be one of/],
      ['an unknown gender', { gender: 'UNKNOWN' }, /body\.gender must be one of: MALE, FEMALE, OTHER/],
      ['an unknown property', { favouriteColour: 'blue' }, /body has an unknown property 'favouriteColour'/],
      ['a corporate field on an individual', { companyName: 'Acme' }, /body has an unknown property 'companyName'/],
      ['a number where a string belongs', { firstName: 42 }, /body\.firstName must be string/],
      ['a country that is not a code', { country: 'gh' }, /body\.country must match pattern/],
      ['an impossible date', { dateOfBirth: '1990-02-30' }, /body\.dateOfBirth must match format "date"/],
    ])('%s', async (_label, overrides, message) => {
      await expect400(individualBody(overrides), message);
    });

    it.each([
      ['firstName', /body\.firstName is required/],
      ['lastName', /body\.lastName is required/],
      ['country', /body\.country is required/],
      ['groups', /body\.groups is required/],
      ['password', /body\.password is required/],
    ])('an individual without %s', async (field, message) => {
      const body: Record<string, unknown> = individualBody();
      delete body[field];
      await expect400(body, message);
    });

    it('a corporate client without companyName', async () => {
      const body: Record<string, unknown> = corporateBody();
      delete body.companyName;
      await expect400(body, /body\.companyName is required/);
    });

    it('a contact person without email', async () => {
      await expect400(corporateBody({ contactPersons: [{ name: 'Ama', position: 'CFO', phoneNumber: '+233209876543' }] }),
        /body\.contactPersons\[0\]\.email is required/);
    });

    it('a missing or unknown type', async () => {
      const body: Record<string, unknown> = individualBody();
      delete body.type;
      await expect400(body, /body\.type is required/);
      await expect400(individualBody({ type: 'ROBOT' }), /body\.type must be one of the allowed values/);
    });

    it('neither email nor phone number', async () => {
      await expect400(individualBody({ email: undefined, phoneNumber: undefined }), /body\.email or body\.phoneNumber is required/);
    });

    it('an unknown country code', async () => {
      await expect400(individualBody({ country: 'ZZ' }), /body\.country 'ZZ' is not a country code/);
    });

    it('a date of birth in the future', async () => {
      await expect400(individualBody({ dateOfBirth: '2999-01-01' }), /body\.dateOfBirth must be in the past/);
    });

    it('an identification card expiring before it was issued', async () => {
      await expect400(individualBody({ identificationCard: { idNumber: 'P123', type: 'PASSPORT', issueDate: '2020-01-01', expiryDate: '2019-01-01' } }),
        /body\.identificationCard\.expiryDate must be after issueDate/);
    });

    it('a body that is not JSON', async () => {
      const res = await h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: '{"type":', headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_JSON', error: 'Bad Request' });
    });
  });

  it('rejects a taken email (ignoring case) or phone number with 409, and writes nothing', async () => {
    const first = individualBody();
    await signUp(h, first);
    const before = await h.db.selectFrom('clients').select(h.db.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const sameEmail = await post(individualBody({ email: first.email.toUpperCase() }));
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toEqual({ statusCode: 409, requestId: expect.any(String), message: 'An account with this email already exists', error: 'Conflict', code: 'EMAIL_TAKEN' });
    const samePhone = await post(individualBody({ phoneNumber: first.phoneNumber }));
    expect(samePhone.statusCode).toBe(409);
    expect(samePhone.json().code).toBe('PHONE_NUMBER_TAKEN');
    const after = await h.db.selectFrom('clients').select(h.db.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('lets another tenant use the same email: accounts belong to a tenant', async () => {
    const body = individualBody();
    await signUp(h, body);
    const res = await post(body, h.otherApiKey);
    expect(res.statusCode).toBe(201);
    const row = await h.db.selectFrom('clients').select('tenant_id').where('id', '=', res.json().data.id).executeTakeFirstOrThrow();
    expect(row.tenant_id).toBe(h.otherTenantId);
  });

  it('gives one 201 and one 409 when the same signup races itself', async () => {
    const body = individualBody();
    const answers = await Promise.all([post(body), post(body), post(body)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it('needs an Api-Key, checked before the body', async () => {
    const none = await post({ nonsense: true }, null);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ statusCode: 401, requestId: expect.any(String), message: 'The Api-Key header is required', error: 'Unauthorized', code: 'MISSING_API_KEY' });
    const wrong = await post(individualBody(), 'sk_sandbox_not_a_real_key');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('INVALID_API_KEY');
  });

  it('answers 413 for a body over the limit and 415 for a body that is not JSON', async () => {
    const big = await post(individualBody({ notes: 'x'.repeat(h.config.bodyLimitBytes + 10) }));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large', code: 'PAYLOAD_TOO_LARGE' });
    const text = await h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type', code: 'UNSUPPORTED_MEDIA_TYPE' });
  });
});

describe('groups', () => {
  it('keeps each group id once', async () => {
    const res = await post(individualBody({ groups: ['retail', 'vip', 'retail'] }));
    expect(res.json().data.groups).toEqual(['retail', 'vip']);
  });
});
