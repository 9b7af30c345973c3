import { randomBytes } from 'node:crypto';
import type { Harness } from './harness.js';

let counter = 0;
/**
 * Phone numbers go up from a random start, one per body: random ones collided (a birthday clash
 * among the fuzzer's thousands of sign-ups answered 409 PHONE_NUMBER_TAKEN), these cannot within a run.
 */
const phoneStart = Math.floor(Math.random() * 5e6);

/** A unique, valid individual signup body. */
export function individualBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}${randomBytes(2).toString('hex')}`;
  return {
    type: 'INDIVIDUAL',
    firstName: 'Kofi',
    lastName: 'Mensah',
    otherNames: 'Atta',
    email: `kofi.${tag}@example.com`,
    phoneNumber: `+23324${String((phoneStart + counter) % 1e7).padStart(7, '0')}`,
    password: 's3cure-Pass',
    country: 'GH',
    groups: [],
    ...overrides,
  };
}

/** A unique, valid corporate signup body. */
export function corporateBody(overrides: Record<string, unknown> = {}) {
  const base = individualBody();
  return {
    type: 'CORPORATE',
    companyName: 'Asante Logistics Ltd',
    email: base.email.replace('kofi', 'accounts'),
    phoneNumber: base.phoneNumber,
    password: 'c0rp-Secret',
    country: 'GH',
    groups: [],
    contactPersons: [{ name: 'Ama Owusu', position: 'Finance Manager', phoneNumber: '+233209876543', email: 'ama@example.com' }],
    ...overrides,
  };
}

/** Signs a client up and answers its account and token. */
export async function signUp(h: Harness, body: Record<string, unknown> = individualBody(), apiKey?: string) {
  const res = await h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: body, apiKey });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const data = res.json().data;
  return { account: data, token: data.accessToken as string, body };
}

/** Who calls: a bearer token, with its tenant's Api-Key when it is not the sandbox one. */
export type Caller = string | { token: string; apiKey: string };
/** A caller as `h.call` options. */
export const auth = (as: Caller) => (typeof as === 'string' ? { token: as } : as);

/**
 * The people of an access test: a signed-up client (`token`, `clientId`), another client of the
 * same tenant, and a client of another tenant (with that tenant's Api-Key).
 */
export async function castOfClients(h: Harness) {
  const signed = await signUp(h);
  return {
    token: signed.token,
    clientId: signed.account.id as string,
    otherToken: (await signUp(h, individualBody())).token,
    otherTenant: { token: (await signUp(h, individualBody(), h.otherApiKey)).token, apiKey: h.otherApiKey } as Caller,
  };
}

/** The tenant's ONLINE product of this category (the sandbox sells one of each): what a client buys. */
export async function onlineProductId(h: Harness, category: string): Promise<string> {
  return (await h.db.selectFrom('products').select('id').where('distribution', '=', 'ONLINE').where('category', '=', category)
    .executeTakeFirstOrThrow()).id;
}

/** A day `days` from the real today (UTC), `YYYY-MM-DD`. */
export const plusDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The newest outbox message to a recipient. */
export async function lastMessageTo(h: Harness, recipient: string) {
  return h.db.selectFrom('outbox').selectAll().where('recipient', '=', recipient)
    .orderBy('created_at', 'desc').limit(1).executeTakeFirst();
}

/** The code of the newest message to a recipient, which must be the `template` one (a password reset code by default). */
export async function codeSentTo(h: Harness, recipient: string, template = 'password-reset-code') {
  const message = await lastMessageTo(h, recipient);
  expect(message?.template).toBe(template);
  return /code is (\d{6})/.exec(message!.body)![1];
}

/** A body for staff's `POST /staff/clients`: a sign-up body without its password (since 1.2 staff never choose one). */
export function staffClientBody<B extends Record<string, unknown>>({ password: _password, ...body }: B): Omit<B, 'password'> {
  return body;
}

/** A client opened by staff sets its own password with the set-up code it was sent (by e-mail, else SMS); answers the password. */
export async function setOwnPassword(h: Harness, username: string, password = 'Own-Client-Pass-1', apiKey?: string) {
  const message = await h.db.selectFrom('outbox').select('body').where('recipient', '=', username).where('template', '=', 'set-password-code')
    .orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
  const resetCode = /code is (\d{6})/.exec(message.body)![1];
  const res = await h.call({ method: 'POST', url: '/api/v1/auth/password/reset', apiKey, payload: { username, resetCode, password, passwordConfirm: password } });
  if (res.statusCode !== 200) throw new Error(`password not set: ${res.statusCode} ${res.body}`);
  return password;
}

/** The client buys a home policy (one house) of the tenant's ONLINE home product, starting in `startDays`: PROCESSING, with its invoice. */
export async function buyHomePolicy(h: Harness, token: string, productId: string, startDays = 10) {
  const res = await h.call({
    method: 'POST', url: '/api/v1/client/policies', token, payload: {
      policyType: 'HOME', currency: 'GHS', startDate: plusDays(startDays), endDate: plusDays(startDays + 364), productId, businessType: 'NEW_BUSINESS',
      assets: [{ sumInsured: 450000, usage: 'PRIVATE', location: 'House No. 14, Nii Ashie Street, East Legon' }],
    },
  });
  if (res.statusCode !== 201) throw new Error(`policy not created: ${res.statusCode} ${res.body}`);
  const policy = res.json().data;
  return { id: policy.id as string, policyNo: policy.policyNo as string, invoiceId: policy.invoice.id as string,
    invoiceNo: policy.invoice.invoiceNo as string, amount: policy.invoice.amount as number };
}
