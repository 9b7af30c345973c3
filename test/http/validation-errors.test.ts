import { createHarness, EXAMPLES_DAY, type Harness } from '../helpers/harness.js';
import { individualBody, signUp } from '../helpers/clients.js';

/**
 * A 400 from request validation lists every invalid field in `errors` (the first 20), led by the one
 * `message` names as it always did; a request too large to check past its first error lists that one.
 */

let h: Harness;
let token: string;
let autoExample: Record<string, any>;

beforeAll(async () => {
  h = await createHarness();
  token = (await signUp(h)).token;
  const document = (await h.call({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  autoExample = document.paths['/client/policies/auto'].post.requestBody.content['application/json'].examples['new-business'].value;
});
afterAll(async () => { await h.close(); });

const BAD_REQUEST = { statusCode: 400, requestId: expect.any(String), error: 'Bad Request', code: 'VALIDATION_ERROR' };

describe('signUp: POST /auth/signup, with several invalid fields', () => {
  it('lists all three in errors, message naming the first as before', async () => {
    const { firstName: _missing, ...body } = individualBody({ email: 'not-an-email', password: 'abc' });
    const res = await h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: body });
    expect(res.statusCode).toBe(400);
    const answer = res.json();
    expect(answer).toMatchObject(BAD_REQUEST);
    expect(answer.errors).toHaveLength(3);
    expect(answer.errors).toEqual(expect.arrayContaining([
      { field: 'body.firstName', message: 'is required', code: 'required' },
      { field: 'body.email', message: 'must match format "email"', code: 'format' },
      { field: 'body.password', message: expect.stringMatching(/^must NOT have fewer than \d+ characters$/), code: 'minLength' },
    ]));
    // message is the sentence it always was, about the first of them.
    expect(answer.message).toBe(`${answer.errors[0].field} ${answer.errors[0].message}`);
  });

  it('names an unknown property as the field, and keeps one field once', async () => {
    const res = await h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: individualBody({ email: 'nope', nickname: 'K' }) });
    expect(res.statusCode).toBe(400);
    const answer = res.json();
    expect(answer.errors).toEqual(expect.arrayContaining([
      { field: 'body.email', message: 'must match format "email"', code: 'format' },
      expect.objectContaining({ field: 'body.nickname', message: expect.stringMatching(/^is an unknown property of body$/) }),
    ]));
    const fields = answer.errors.map((e: { field: string }) => e.field);
    expect(new Set(fields).size).toBe(fields.length);
  });

  it('answers a valid body as before (no errors anywhere)', async () => {
    const res = await h.call({ method: 'POST', url: '/api/v1/auth/signup', payload: individualBody() });
    expect(res.statusCode).toBe(201);
  });
});

describe('createAutoPolicy: POST /client/policies/auto, listPolicies: GET /client/policies, with many invalid items', () => {
  it('lists at most 20 of 50 invalid vehicles, message naming the first', async () => {
    h.clock.set(EXAMPLES_DAY);
    const assets = Array.from({ length: 50 }, () => ({ ...autoExample.assets[0], seats: 'five' }));
    const res = await h.call({ method: 'POST', url: '/api/v1/client/policies/auto', token, payload: { ...autoExample, assets } });
    expect(res.statusCode).toBe(400);
    const answer = res.json();
    expect(answer).toMatchObject({ ...BAD_REQUEST, message: 'body.assets[0].seats must be integer' });
    expect(answer.errors).toHaveLength(20);
    expect(answer.errors[0]).toEqual({ field: 'body.assets[0].seats', message: 'must be integer', code: 'type' });
    expect(answer.errors[19]).toEqual({ field: 'body.assets[19].seats', message: 'must be integer', code: 'type' });
  });

  it('checks a request past its limits up to its first error only, and lists that one', async () => {
    // 501 vehicles: past the longest array any request takes, so the answer comes from the first error alone.
    const assets = Array.from({ length: 501 }, () => ({}));
    const res = await h.call({ method: 'POST', url: '/api/v1/client/policies/auto', token, payload: { ...autoExample, assets } });
    expect(res.statusCode).toBe(400);
    const answer = res.json();
    expect(answer.errors).toEqual([{ field: answer.message.split(' ')[0], message: answer.message.split(' ').slice(1).join(' '), code: expect.any(String) }]);
  });

  it('lists every invalid query parameter too', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/client/policies?limit=0&page=-1', token });
    expect(res.statusCode).toBe(400);
    const answer = res.json();
    expect(answer.errors.map((e: { field: string }) => e.field)).toEqual(['query.limit', 'query.page']);
    expect(answer.message).toBe(`query.limit ${answer.errors[0].message}`);
  });
});

describe('createTransaction: POST /client/transactions, a rule the server checks itself', () => {
  it('lists the one field its message names', async () => {
    const res = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token,
      payload: { invoiceId: '5b8e2f14-3c9a-4d7e-8f1b-2a3c4d5e6f70', paymentMethod: 'CASH', mobileNumber: '0244123456' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ ...BAD_REQUEST, message: 'body.mobileNumber is only allowed when body.paymentMethod is MOBILE_MONEY',
      errors: [{ field: 'body.mobileNumber', message: 'is only allowed when body.paymentMethod is MOBILE_MONEY', code: 'invalid' }] });
  });
});
