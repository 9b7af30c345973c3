/**
 * The generated TypeScript SDK (`npm run sdk` -> generated/sdk) against a real server on a real
 * port: every operation through its typed method, answers read through the SDK's typed models,
 * errors as the SDK's ResponseError. `npm run sdk` also type-checks this file against the SDK
 * (tsconfig.json leaves it out, since generated/sdk is build output that may not exist).
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createHarness, type Harness } from '../helpers/harness.js';
import { lastMessageTo } from '../helpers/clients.js';

type Sdk = typeof import('../../generated/sdk/index.js');

const present = existsSync(path.join(process.cwd(), 'generated/sdk/index.ts'));
if (!present) {
  console.warn('test/http/sdk.test.ts: SKIPPED: generated/sdk does not exist. Run `npm run sdk` to generate the SDK and test it.');
}
const describeSdk = present ? describe : describe.skip;

let h: Harness;
let sdk: Sdk;
let basePath: string;

beforeAll(async () => {
  if (!present) return;
  sdk = await import('../../generated/sdk/index.js');
  h = await createHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  basePath = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => { if (present) await h.close(); });

/** The SDK configured as an integrator's app would be: its Api-Key, and a client's token once signed in. */
function configuration(options: { apiKey?: string; accessToken?: string } = {}) {
  return new sdk.Configuration({ basePath, apiKey: options.apiKey ?? h.apiKey, accessToken: options.accessToken });
}
const auth = (options?: { apiKey?: string; accessToken?: string }) => new sdk.AuthorizationApi(configuration(options));
const lookups = (options?: { apiKey?: string }) => new sdk.LookupsApi(configuration(options));
const vehicles = () => new sdk.VehiclesApi(configuration());

let counter = 0;
function unique() {
  counter += 1;
  return `${Date.now().toString(36)}${counter}`;
}

function individual(overrides: Partial<import('../../generated/sdk/index.js').IndividualSignUp> = {}) {
  const tag = unique();
  return {
    type: 'INDIVIDUAL' as const,
    firstName: 'Kofi',
    lastName: 'Mensah',
    email: `kofi.sdk.${tag}@example.com`,
    phoneNumber: `+23324${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
    password: 's3cure-Pass',
    country: 'GH',
    groups: [],
    ...overrides,
  };
}

/** The SDK's ResponseError a call fails with, and the contract's Error body it carries. */
async function failure(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof sdk.ResponseError)) throw error;
    return { status: error.response.status, body: sdk.ErrorResponseFromJSON(await error.response.json()) };
  }
  throw new Error('the call succeeded, a ResponseError was expected');
}

describeSdk('generated SDK against a running server', () => {
  it('System: getHealth and getOpenApiDocument, without credentials', async () => {
    const system = new sdk.SystemApi(new sdk.Configuration({ basePath }));
    const health = await system.getHealth();
    expect(health).toEqual({ status: 'ok', database: 'ok', version: expect.any(String) });
    const document = await system.getOpenApiDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/auth/login');
  });

  it('signUp (individual): a typed account with an access token', async () => {
    const body = individual({ gender: sdk.Gender.FEMALE, dateOfBirth: new Date('1990-06-21'), identificationCard: {
      idNumber: 'GHA-721234567-8', type: sdk.IdentificationCardTypeEnum.GHANA_CARD, issueDate: new Date('2021-03-15'), expiryDate: null,
    } });
    const res = await auth().signUp({ signUpRequest: body });
    expect(res.statusCode).toBe(201);
    expect(res.success).toBe(true);
    const account = res.data;
    expect(account).toMatchObject({
      type: 'INDIVIDUAL', email: body.email, phoneNumber: body.phoneNumber, firstName: 'Kofi', lastName: 'Mensah',
      gender: 'FEMALE', fullName: 'Kofi Mensah', companyName: null, tokenType: 'Bearer', groups: [], contactPersons: [],
    });
    expect(account.identificationCard).toMatchObject({ idNumber: 'GHA-721234567-8', type: 'GHANA_CARD' });
    expect(account.identificationCard?.issueDate.toISOString().slice(0, 10)).toBe('2021-03-15');
    expect(account.dateOfBirth?.toISOString().slice(0, 10)).toBe('1990-06-21');
    expect(typeof account.age).toBe('number');
    expect(account.createdAt).toBeInstanceOf(Date);
    expect(account.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(account.accessToken.split('.')).toHaveLength(3);
  });

  it('signUp (corporate) with contact persons', async () => {
    const tag = unique();
    const res = await auth().signUp({ signUpRequest: {
      type: 'CORPORATE', companyName: 'Asante Logistics Ltd', email: `accounts.sdk.${tag}@example.com`, password: 'c0rp-Secret',
      country: 'GH', groups: [], dateOfIncorporation: new Date('2012-09-01'),
      contactPersons: [{ name: 'Ama Owusu', position: 'Finance Manager', phoneNumber: '+233209876543', email: 'ama@example.com' }],
    } });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ type: 'CORPORATE', companyName: 'Asante Logistics Ltd', fullName: 'Asante Logistics Ltd', firstName: null, gender: null, identificationCard: null });
    expect(res.data.contactPersons).toEqual([{ name: 'Ama Owusu', position: 'Finance Manager', phoneNumber: '+233209876543', email: 'ama@example.com' }]);
    expect(res.data.dateOfIncorporation?.toISOString().slice(0, 10)).toBe('2012-09-01');
  });

  it('login, changePassword and logout with the bearer token', async () => {
    const body = individual();
    await auth().signUp({ signUpRequest: body });
    const login = await auth().login({ loginRequest: { username: body.email, password: body.password } });
    expect(login.statusCode).toBe(200);
    expect(login.data.email).toBe(body.email);
    const token = login.data.accessToken;

    const changed = await auth({ accessToken: token }).changePassword({ passwordChange: { oldPassword: body.password, newPassword: 'n3w-Secret' } });
    expect(changed).toMatchObject({ statusCode: 200, success: true, message: 'Password changed' });
    expect(changed.data.tokenType).toBe('Bearer');
    const fresh = changed.data.accessToken;
    expect(fresh).not.toBe(token);

    // The change retired the older token.
    const stale = await failure(auth({ accessToken: token }).logout());
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe('INVALID_TOKEN');

    const out = await auth({ accessToken: fresh }).logout();
    expect(out).toEqual({ statusCode: 200, success: true, message: 'Logged out' });
    expect((await failure(auth({ accessToken: fresh }).logout())).status).toBe(401);
  });

  it('requestPasswordReset and resetPassword', async () => {
    const body = individual();
    await auth().signUp({ signUpRequest: body });
    const requested = await auth().requestPasswordReset({ passwordResetRequest: { username: body.email } });
    expect(requested.statusCode).toBe(200);
    expect(requested.success).toBe(true);
    expect(typeof requested.message).toBe('string');
    const message = await lastMessageTo(h, body.email);
    const code = /code is (\d{6})/.exec(message?.body ?? '')?.[1];
    expect(code).toBeDefined();
    const reset = await auth().resetPassword({ passwordReset: { username: body.email, resetCode: code!, password: 'fresh-Pass1', passwordConfirm: 'fresh-Pass1' } });
    expect(reset.statusCode).toBe(200);
    expect((await auth().login({ loginRequest: { username: body.email, password: 'fresh-Pass1' } })).data.accessToken).toEqual(expect.any(String));
  });

  it('errors are ResponseErrors: 401 for a bad key, 400 for a bad body, 409 for a duplicate signup', async () => {
    const badKey = await failure(lookups({ apiKey: 'sk_sandbox_unknown' }).listInsurers());
    expect(badKey).toEqual({ status: 401, body: { statusCode: 401, requestId: expect.any(String), message: 'The Api-Key is not valid', error: 'Unauthorized', code: 'INVALID_API_KEY' } });

    const badBody = await failure(auth().signUp({ signUpRequest: individual({ password: 'abc' }) }));
    expect(badBody.status).toBe(400);
    expect(badBody.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_ERROR' });
    expect(badBody.body.message).toMatch(/password/);

    const body = individual();
    await auth().signUp({ signUpRequest: body });
    const duplicate = await failure(auth().signUp({ signUpRequest: { ...body, phoneNumber: undefined } }));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.statusCode).toBe(409);

    const wrongPassword = await failure(auth().login({ loginRequest: { username: body.email, password: 'not-the-password' } }));
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('error codes are the SDK\'s ErrorCode values, which an integrator can switch on', async () => {
    const wrongPassword = await failure(auth().login({ loginRequest: { username: 'nobody@example.com', password: 'not-the-password' } }));
    const code = wrongPassword.body.code as import('../../generated/sdk/index.js').ErrorCode;
    expect(Object.values(sdk.ErrorCode)).toContain(code);
    expect(code).toBe(sdk.ErrorCode.INVALID_CREDENTIALS);
  });

  it('Lookups: listInsurers, listCountries, listCurrencies', async () => {
    const insurers = await lookups().listInsurers({ type: sdk.InsurerType.INSURER });
    expect(insurers.data.length).toBeGreaterThan(0);
    for (const insurer of insurers.data) expect(insurer.type).toBe('INSURER');
    expect(Object.values(sdk.CompanyKind)).toContain(insurers.data[0].kind);

    const countries = await lookups().listCountries({ include: sdk.ListCountriesIncludeEnum.stateProvinces, countryCode: 'GH' });
    expect(countries.data).toHaveLength(1);
    expect(countries.data[0]).toMatchObject({ name: 'Ghana', countryCode: 'GH', phone: '+233', currency: 'GHS' });
    expect(countries.data[0].stateProvinces?.map((s) => s.code)).toContain('AH');
    const bare = await lookups().listCountries({ include: 'none', name: 'ghana' });
    expect(bare.data[0].stateProvinces).toBeUndefined();

    const currencies = await lookups().listCurrencies({ status: sdk.CurrencyStatus.ACTIVE });
    expect(currencies.data[0]).toMatchObject({ code: 'GHS', isDefault: true, status: 'ACTIVE' });
    expect(currencies.data[0].createdAt).toBeInstanceOf(Date);
  });

  it('listCompanies pages, and its deprecated alias answers the same', async () => {
    const first = await lookups().listCompanies({ limit: 2, page: 1 });
    expect(first.data).toHaveLength(2);
    expect(first.paginator).toMatchObject({ limit: 2, page: 1, offset: 0, pagingCounter: 1, hasPrevPage: false, hasNextPage: true, prevPage: null, nextPage: 2 });
    const { pageCount, itemsCount } = first.paginator;
    expect(pageCount).toBe(Math.ceil(itemsCount / 2));

    const second = await lookups().listCompanies({ limit: 2, page: 2 });
    expect(second.paginator).toMatchObject({ page: 2, prevPage: 1, hasPrevPage: true });
    expect(second.data.map((c) => c.id)).not.toEqual(first.data.map((c) => c.id));

    const past = await lookups().listCompanies({ limit: 2, page: pageCount + 1 });
    expect(past.data).toEqual([]);
    expect(past.paginator).toMatchObject({ hasNextPage: false, nextPage: null });

    const agents = await lookups().listCompanies({ type: sdk.CompanyType.AGENT });
    expect(agents.data.every((c) => c.type === 'AGENT')).toBe(true);

    expect(await lookups().listCompaniesLegacy({ limit: 2, page: 1 })).toEqual(first);
  });

  it('Vehicles: makes, body types and schedule types, and the deprecated aliases', async () => {
    const makes = await vehicles().listVehicles({ name: 'toyo' });
    expect(makes.data.map((v) => v.name)).toEqual(['Toyota']);
    expect(makes.data[0].models).toContain('Corolla');
    expect(await vehicles().listVehiclesLegacy({ name: 'toyo' })).toEqual(makes);

    const bodyTypes = await vehicles().listVehicleBodyTypes();
    expect(bodyTypes.data.length).toBeGreaterThan(0);
    expect(bodyTypes.data.map((b) => b.code)).toContain('SALOON');
    expect(await vehicles().listVehicleBodyTypesLegacy()).toEqual(bodyTypes);

    const scheduleTypes = await vehicles().listVehicleScheduleTypes();
    expect(scheduleTypes.data.length).toBeGreaterThan(0);
    for (const s of scheduleTypes.data) expect(Object.values(sdk.VehicleUsage)).toContain(s.usage);
    expect(await vehicles().listVehicleScheduleTypesLegacy()).toEqual(scheduleTypes);
  });
});
