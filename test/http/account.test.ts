import { createHarness, type Harness } from '../helpers/harness.js';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { corporateBody, individualBody, lastMessageTo, signUp } from '../helpers/clients.js';
import { multipart, PDF, PNG } from '../helpers/multipart.js';

let h: Harness;
const dataDir = mkdtempSync(path.join(tmpdir(), 'coverline-account-'));
beforeAll(async () => { h = await createHarness({ dataDir }); });
afterAll(async () => { await h.close(); });

const account = (token: string) => h.call({ method: 'GET', url: '/api/v1/client/account', token });
const patch = (token: string, payload: object) => h.call({ method: 'PATCH', url: '/api/v1/client/account', token, payload });

describe('getAccount: GET /client/account', () => {
  it('answers the profile with addresses (PRIMARY first), newest notifications and the unread count', async () => {
    const { token, body } = await signUp(h, individualBody({ dateOfBirth: '1990-06-21' }));
    for (const type of ['SECONDARY', 'PRIMARY']) {
      const res = await h.call({ method: 'POST', url: '/api/v1/client/delivery-addresses', token, payload: {
        type, name: 'Kofi Mensah', region: 'Ashanti', city: 'Kumasi', phoneNumber: '+233244123456', address: `House ${type}`,
      } });
      expect(res.statusCode).toBe(201);
    }
    const res = await account(token);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ email: body.email, fullName: 'Kofi Atta Mensah', unreadNotifications: 1 });
    expect(data.age).toBeGreaterThanOrEqual(35);
    expect(data.deliveryAddresses.map((a: { type: string }) => a.type)).toEqual(['PRIMARY', 'SECONDARY']);
    expect(data.notifications).toHaveLength(1);
    expect(data.notifications[0]).toMatchObject({ title: 'Welcome to Coverline Sandbox Brokers', status: 'unread', readAt: null });
    expect(JSON.stringify(data)).not.toMatch(/argon2|password/i);
  });

  it('needs a token', async () => {
    expect((await h.call({ method: 'GET', url: '/api/v1/client/account' })).json().code).toBe('MISSING_TOKEN');
  });
});

describe('updateAccount: PATCH /client/account', () => {
  it('changes the fields sent, clears fields sent as null, and leaves the rest', async () => {
    const { token } = await signUp(h, individualBody({ otherNames: 'Atta', title: 'Mr' }));
    const res = await patch(token, { city: 'Kumasi', region: 'Ashanti', otherNames: null, identificationCard: { idNumber: 'P01234', type: 'PASSPORT', issueDate: '2020-01-01' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ city: 'Kumasi', region: 'Ashanti', otherNames: null, title: 'Mr', fullName: 'Kofi Mensah',
      identificationCard: { idNumber: 'P01234', type: 'PASSPORT', issueDate: '2020-01-01' } });
    expect((await account(token)).json().data.city).toBe('Kumasi');
  });

  it('updates a company\'s contact persons', async () => {
    const { token } = await signUp(h, corporateBody());
    const persons = [{ name: 'Yaw Boateng', position: 'CEO', phoneNumber: '+233201112223', email: 'yaw@example.com' }];
    const res = await patch(token, { companyName: 'Asante Freight Ltd', contactPersons: persons });
    expect(res.json().data).toMatchObject({ companyName: 'Asante Freight Ltd', fullName: 'Asante Freight Ltd', contactPersons: persons });
  });

  it('refuses the other client type\'s fields, empty and unknown bodies, and the seed\'s bounds', async () => {
    const person = await signUp(h);
    const company = await signUp(h, corporateBody());
    const cases: [string, object, RegExp][] = [
      [person.token, { companyName: 'Acme' }, /body\.companyName applies to CORPORATE clients only/],
      [company.token, { firstName: 'Ama' }, /body\.firstName applies to INDIVIDUAL clients only/],
      [person.token, {}, /body must NOT have fewer than 1 properties/],
      [person.token, { email: 'new@example.com' }, /body has an unknown property 'email'/],
      [person.token, { groups: ['vip'] }, /body has an unknown property 'groups'/],
      [person.token, { country: 'ZZ' }, /body\.country 'ZZ' is not a country code/],
      [person.token, { dateOfBirth: '2999-01-01' }, /body\.dateOfBirth must be in the past/],
      [person.token, { identificationCard: { idNumber: 'X', type: 'PASSPORT', issueDate: '2020-01-01' } }, /idNumber must NOT have fewer than 2/],
      [person.token, { identificationCard: { idNumber: 'XY', type: 'PASSPORT' } }, /issueDate is required/],
      [company.token, { contactPersons: [{ name: 'A', position: 'B', email: 'a@b.co' }] }, /body\.contactPersons\[0\]\.phoneNumber is required/],
      [person.token, { firstName: '' }, /body\.firstName must NOT have fewer than 1 characters/],
    ];
    for (const [token, payload, message] of cases) {
      const res = await patch(token, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    }
  });
});

describe('verification codes', () => {
  const send = (token: string, type: string) => h.call({ method: 'POST', url: '/api/v1/client/account/send-verification-code', token, payload: { type } });
  const verify = (token: string, type: string, verificationCode: string) =>
    h.call({ method: 'POST', url: '/api/v1/client/account/verify', token, payload: { type, verificationCode } });
  const codeIn = async (recipient: string) => /code is (\d{6})/.exec((await lastMessageTo(h, recipient))!.body)![1];

  it('verifies the email with the code sent to it, then says it is verified', async () => {
    const { token, body } = await signUp(h);
    const sent = await send(token, 'email');
    expect(sent.json()).toEqual({ statusCode: 200, success: true, message: 'A verification code was sent to your email' });
    const code = await codeIn(body.email as string);
    expect((await verify(token, 'email', code === '000000' ? '111111' : '000000')).json().code).toBe('INVALID_VERIFICATION_CODE');
    const ok = await verify(token, 'email', code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ emailVerified: true, phoneVerified: false });
    expect((await verify(token, 'email', code)).json().code).toBe('INVALID_VERIFICATION_CODE');
    expect((await send(token, 'email')).json()).toMatchObject({ statusCode: 400, code: 'ALREADY_VERIFIED' });
  });

  it('verifies the phone by SMS; a client without a phone gets 400', async () => {
    const { token, body } = await signUp(h);
    await send(token, 'phone');
    expect((await lastMessageTo(h, body.phoneNumber as string))?.channel).toBe('sms');
    expect((await verify(token, 'phone', await codeIn(body.phoneNumber as string))).json().data.phoneVerified).toBe(true);
    const noPhone = await signUp(h, individualBody({ phoneNumber: undefined }));
    expect((await send(noPhone.token, 'phone')).json()).toMatchObject({ statusCode: 400, code: 'NO_CONTACT' });
  });

  it('does not let a code sent to the old email verify a new one', async () => {
    const { token, body } = await signUp(h);
    await send(token, 'email');
    const code = await codeIn(body.email as string);
    await h.call({ method: 'PUT', url: '/api/v1/client/account/email', token, payload: { oldEmail: body.email, newEmail: `new.${body.email}` } });
    expect((await verify(token, 'email', code)).json().code).toBe('INVALID_VERIFICATION_CODE');
  });

  it('limits sending to 3 an hour and checks the code\'s shape', async () => {
    const { token } = await signUp(h);
    for (let i = 0; i < 3; i += 1) expect((await send(token, 'email')).statusCode).toBe(200);
    expect((await send(token, 'email')).statusCode).toBe(429);
    expect((await verify(token, 'email', '12345')).json().message).toBe('body.verificationCode must NOT have fewer than 6 characters');
    expect((await send(token, 'fax')).json().message).toBe('body.type must be one of: email, phone');
  });
});

describe('changeEmail, changePhoneNumber: PUT /client/account/email and /phone-number', () => {
  const putEmail = (token: string, payload: object) => h.call({ method: 'PUT', url: '/api/v1/client/account/email', token, payload });
  const putPhone = (token: string, payload: object) => h.call({ method: 'PUT', url: '/api/v1/client/account/phone-number', token, payload });

  it('changes the email: the new one logs in and needs verifying; the old one is told', async () => {
    const { token, body } = await signUp(h);
    const newEmail = `changed.${body.email}`;
    const res = await putEmail(token, { oldEmail: (body.email as string).toUpperCase(), newEmail });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ email: newEmail, emailVerified: false });
    expect((await h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: newEmail, password: body.password } })).statusCode).toBe(200);
    expect((await h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: body.email, password: body.password } })).statusCode).toBe(401);
    expect((await lastMessageTo(h, body.email as string))?.template).toBe('email-changed');
  });

  it('refuses a wrong old email, an unchanged one, a taken one (any case) and a malformed one', async () => {
    const { token, body } = await signUp(h);
    const other = await signUp(h);
    expect((await putEmail(token, { oldEmail: 'wrong@example.com', newEmail: 'x@example.com' })).json())
      .toEqual({ statusCode: 400, requestId: expect.any(String), message: "body.oldEmail is not the account's email", error: 'Bad Request', code: 'OLD_CONTACT_MISMATCH' });
    expect((await putEmail(token, { oldEmail: body.email, newEmail: body.email })).statusCode).toBe(400);
    const taken = await putEmail(token, { oldEmail: body.email, newEmail: (other.body.email as string).toUpperCase() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('EMAIL_TAKEN');
    expect((await putEmail(token, { oldEmail: body.email, newEmail: 'not-an-email' })).json().message).toBe('body.newEmail must match format "email"');
    expect((await putEmail(token, { oldEmail: body.email })).json().message).toBe('body.newEmail is required');
  });

  it('lets a client take an email used in another tenant', async () => {
    const elsewhere = await signUp(h, individualBody(), h.otherApiKey);
    const { token, body } = await signUp(h);
    expect((await putEmail(token, { oldEmail: body.email, newEmail: elsewhere.body.email })).statusCode).toBe(200);
  });

  it('changes the phone number with the same rules', async () => {
    const { token, body } = await signUp(h);
    const other = await signUp(h);
    expect((await putPhone(token, { oldPhoneNumber: '+233200000000', newPhoneNumber: '+233509999999' })).json().code).toBe('OLD_CONTACT_MISMATCH');
    expect((await putPhone(token, { oldPhoneNumber: body.phoneNumber, newPhoneNumber: other.body.phoneNumber })).json().code).toBe('PHONE_NUMBER_TAKEN');
    expect((await putPhone(token, { oldPhoneNumber: body.phoneNumber, newPhoneNumber: '+23350123' })).json().message)
      .toBe('body.newPhoneNumber must NOT have fewer than 10 characters');
    const res = await putPhone(token, { oldPhoneNumber: body.phoneNumber, newPhoneNumber: '+233509876543' });
    expect(res.json().data).toMatchObject({ phoneNumber: '+233509876543', phoneVerified: false });
    expect((await lastMessageTo(h, body.phoneNumber as string))?.channel).toBe('sms');
  });
});

describe('deleteAccount: DELETE /client/account', () => {
  const del = (token: string, payload: object) => h.call({ method: 'DELETE', url: '/api/v1/client/account', token, payload });

  it('needs matching, correct passwords', async () => {
    const { token, body } = await signUp(h);
    expect((await del(token, { password: body.password, passwordConfirm: 'other' })).json().message).toBe('body.passwordConfirm must equal body.password');
    expect((await del(token, { password: 'wrong-pass', passwordConfirm: 'wrong-pass' })).json().code).toBe('INVALID_PASSWORD');
    expect((await del(token, { password: body.password })).json().message).toBe('body.passwordConfirm is required');
    expect((await account(token)).statusCode).toBe(200);
  });

  it('closes the account: no login, no token, personal data erased, the record kept, the email free again', async () => {
    const { token, body, account: created } = await signUp(h);
    await h.call({ method: 'POST', url: '/api/v1/client/delivery-addresses', token, payload: {
      name: 'Kofi', region: 'Ashanti', city: 'Kumasi', phoneNumber: '+233244123456', address: 'House 7' } });
    const res = await del(token, { password: body.password, passwordConfirm: body.password });
    expect(res.json()).toEqual({ statusCode: 200, success: true, message: 'Account deleted' });
    expect((await account(token)).statusCode).toBe(401);
    expect((await h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: body.email, password: body.password } })).statusCode).toBe(401);
    const row = await h.db.selectFrom('clients').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: null, phone_number: null, first_name: null, last_name: null, password_hash: null, is_active: false, type: 'INDIVIDUAL', country: 'GH' });
    expect(row.deleted_at).toBeInstanceOf(Date);
    for (const table of ['delivery_addresses', 'notifications'] as const) {
      expect(await h.db.selectFrom(table).select('id').where('client_id', '=', created.id).execute()).toEqual([]);
    }
    expect((await signUp(h, individualBody({ email: body.email, phoneNumber: body.phoneNumber }))).account.id).not.toBe(created.id);
  });
});

describe('notifications', () => {
  const list = (token: string, query = '') => h.call({ method: 'GET', url: `/api/v1/client/account/notifications${query}`, token });
  const one = (token: string, id: string, method: 'GET' | 'PATCH' | 'DELETE' = 'GET', payload?: object) =>
    h.call({ method, url: `/api/v1/client/account/notifications/${id}`, token, payload });

  async function clientWithNotifications() {
    const client = await signUp(h);
    // Password change notifies too: two notifications, newest first.
    const changed = await h.call({ method: 'PATCH', url: '/api/v1/auth/password', token: client.token, payload: { oldPassword: client.body.password, newPassword: 'n3w-Secret' } });
    return { ...client, token: changed.json().data.accessToken as string };
  }

  it('lists newest first, a page at a time, and filters by status', async () => {
    const { token } = await clientWithNotifications();
    const all = (await list(token)).json();
    expect(all.data.map((n: { title: string }) => n.title)).toEqual(['Your password was changed', 'Welcome to Coverline Sandbox Brokers']);
    expect(all.paginator).toMatchObject({ itemsCount: 2, page: 1, pageCount: 1 });
    const paged = (await list(token, '?limit=1&page=2')).json();
    expect(paged.data).toHaveLength(1);
    expect(paged.paginator).toMatchObject({ itemsCount: 2, limit: 1, page: 2, hasPrevPage: true, hasNextPage: false });
    await one(token, all.data[0].id, 'PATCH', { status: 'read', readAt: new Date().toISOString() });
    expect((await list(token, '?status=unread')).json().data).toHaveLength(1);
    expect((await list(token, '?status=read')).json().data[0].id).toBe(all.data[0].id);
    expect((await list(token, '?status=seen')).statusCode).toBe(400);
  });

  it('marks read (readAt required, not in the future) and unread (no readAt)', async () => {
    const { token } = await clientWithNotifications();
    const [first] = (await list(token)).json().data;
    expect((await one(token, first.id, 'PATCH', { status: 'read' })).json().message).toBe('body.readAt is required when body.status is read');
    expect((await one(token, first.id, 'PATCH', { status: 'read', readAt: '2999-01-01T00:00:00Z' })).json().message).toBe('body.readAt must not be in the future');
    expect((await one(token, first.id, 'PATCH', { status: 'unread', readAt: '2026-01-01T00:00:00Z' })).statusCode).toBe(400);
    expect((await one(token, first.id, 'PATCH', { status: 'gone' })).statusCode).toBe(400);
    const readAt = '2026-11-20T14:03:00.000Z';
    expect((await one(token, first.id, 'PATCH', { status: 'read', readAt })).json().data).toMatchObject({ status: 'read', readAt });
    expect((await one(token, first.id)).json().data).toMatchObject({ status: 'read', readAt });
    expect((await one(token, first.id, 'PATCH', { status: 'unread' })).json().data).toMatchObject({ status: 'unread', readAt: null });
  });

  it('deletes; a deleted, another client\'s or another tenant\'s notification is not found and stays', async () => {
    const mine = await clientWithNotifications();
    const theirs = await signUp(h);
    const elsewhere = await signUp(h, individualBody(), h.otherApiKey);
    const [first] = (await list(mine.token)).json().data;
    for (const other of [theirs.token]) {
      expect((await one(other, first.id)).statusCode).toBe(404);
      expect((await one(other, first.id, 'PATCH', { status: 'read', readAt: new Date().toISOString() })).statusCode).toBe(404);
      expect((await one(other, first.id, 'DELETE')).statusCode).toBe(404);
    }
    const foreign = await h.call({ method: 'GET', url: `/api/v1/client/account/notifications/${first.id}`, token: elsewhere.token, apiKey: h.otherApiKey });
    expect(foreign.statusCode).toBe(404);
    expect((await one(mine.token, first.id)).json().data.status).toBe('unread');
    expect((await one(mine.token, first.id, 'DELETE')).json()).toEqual({ statusCode: 200, success: true, message: 'Notification deleted' });
    expect((await one(mine.token, first.id)).statusCode).toBe(404);
    expect((await one(mine.token, 'not-a-uuid')).statusCode).toBe(400);
  });
});

describe('updateAccount: PATCH /client/account as multipart, with a profile image', () => {
  const documentRows = (clientId: string) => h.db.selectFrom('documents').select(['id', 'storage_key']).where('client_id', '=', clientId).execute();
  const storedFiles = () => readdirSync(path.join(dataDir, 'files'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  const form = (token: string, parts: Parameters<typeof multipart>[0]) => {
    const { payload, headers } = multipart(parts);
    return h.call({ method: 'PATCH', url: '/api/v1/client/account', token, payload, headers });
  };

  it('stores the image as a document, points profileImage at it, and takes the other fields', async () => {
    const { token, account: created } = await signUp(h);
    const res = await form(token, [
      { field: 'profileImage', filename: 'me.png', contentType: 'image/png', data: PNG },
      { field: 'city', data: 'Tamale' },
      { field: 'identificationCard', data: JSON.stringify({ idNumber: 'GHA-1', type: 'GHANA_CARD', issueDate: '2021-01-01' }) },
    ]);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ city: 'Tamale', identificationCard: { idNumber: 'GHA-1' } });
    expect(data.profileImage).toMatch(/^\/api\/v1\/client\/documents\/[0-9a-f-]{36}$/);
    const download = await h.call({ method: 'GET', url: data.profileImage, token });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(download.rawPayload, PNG)).toBe(0);
    expect(await documentRows(created.id)).toHaveLength(1);
  });

  it('refuses a profile image that is not an image, bad JSON text and bad fields, leaving nothing behind', async () => {
    const { token, account: created } = await signUp(h);
    const before = storedFiles();
    const cases: [Parameters<typeof multipart>[0], number, RegExp][] = [
      [[{ field: 'profileImage', filename: 'me.pdf', contentType: 'application/pdf', data: PDF }], 415, /profileImage is not a JPEG, PNG, WebP or HEIC file/],
      [[{ field: 'profileImage', filename: 'me.png', data: PNG }, { field: 'contactPersons', data: '[{' }], 400, /body\.contactPersons must be JSON text/],
      [[{ field: 'profileImage', filename: 'me.png', data: PNG }, { field: 'firstName', data: '' }], 400, /body\.firstName must be string/],
      [[{ field: 'profileImage', filename: 'me.png', data: PNG }, { field: 'favouriteColour', data: 'blue' }], 400, /body has an unknown property 'favouriteColour'/],
      [[{ field: 'avatar', filename: 'me.png', data: PNG }], 400, /Unexpected file 'avatar'/],
    ];
    for (const [parts, status, message] of cases) {
      const res = await form(token, parts);
      expect({ status: res.statusCode, message: res.json().message }).toEqual({ status, message: expect.stringMatching(message) });
    }
    expect(await documentRows(created.id)).toEqual([]);
    expect(storedFiles()).toBe(before);
    expect((await account(token)).json().data.profileImage).toBeNull();
  });

  it('deleting the account removes its documents, rows and bytes', async () => {
    const { token, body, account: created } = await signUp(h);
    await form(token, [{ field: 'profileImage', filename: 'me.png', data: PNG }]);
    const [row] = await documentRows(created.id);
    expect(row).toBeDefined();
    const before = storedFiles();
    await h.call({ method: 'DELETE', url: '/api/v1/client/account', token, payload: { password: body.password, passwordConfirm: body.password } });
    expect(await documentRows(created.id)).toEqual([]);
    expect(storedFiles()).toBe(before - 1);
  });
});
