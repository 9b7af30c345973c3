import { createHarness, type Harness } from '../helpers/harness.js';
import { codeSentTo, individualBody, lastMessageTo, signUp } from '../helpers/clients.js';

let h: Harness;
beforeAll(async () => { h = await createHarness(); });
afterAll(async () => { await h.close(); });

const login = (username: string, password: string) => h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });
const change = (token: string, payload: object) => h.call({ method: 'PATCH', url: '/api/v1/auth/password', token, payload });
const requestReset = (username: string) => h.call({ method: 'POST', url: '/api/v1/auth/password/request-reset', payload: { username } });
const reset = (payload: object) => h.call({ method: 'POST', url: '/api/v1/auth/password/reset', payload });

describe('changePassword: PATCH /auth/password', () => {
  it('changes the password, retires older tokens and answers a new one', async () => {
    const { body, token } = await signUp(h);
    const res = await change(token, { oldPassword: body.password, newPassword: 'n3w-Secret' });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ statusCode: 200, success: true, message: 'Password changed', data: { tokenType: 'Bearer' } });
    expect((await h.call({ method: 'POST', url: '/api/v1/auth/logout', token })).statusCode).toBe(401);
    expect((await login(body.email as string, body.password as string)).statusCode).toBe(401);
    expect((await login(body.email as string, 'n3w-Secret')).statusCode).toBe(200);
    expect((await h.call({ method: 'POST', url: '/api/v1/auth/logout', token: answer.data.accessToken })).statusCode).toBe(200);
    expect((await lastMessageTo(h, body.email as string))?.template).toBe('password-changed');
  });

  it('refuses a wrong old password, an unchanged one and bounds on the new one', async () => {
    const { body, token } = await signUp(h);
    const wrong = await change(token, { oldPassword: 'wrong-pass', newPassword: 'n3w-Secret' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ statusCode: 400, requestId: expect.any(String), message: 'body.oldPassword is not the current password', error: 'Bad Request', code: 'INVALID_OLD_PASSWORD' });
    const same = await change(token, { oldPassword: body.password, newPassword: body.password });
    expect(same.json().message).toBe('body.newPassword must differ from body.oldPassword');
    expect((await change(token, { oldPassword: body.password, newPassword: 'abcd' })).json().message)
      .toBe('body.newPassword must NOT have fewer than 5 characters');
    expect((await change(token, { oldPassword: body.password, newPassword: 'x'.repeat(51) })).json().message)
      .toBe('body.newPassword must NOT have more than 50 characters');
    expect((await change(token, { newPassword: 'n3w-Secret' })).json().message).toBe('body.oldPassword is required');
    // Nothing changed: the old password still works.
    expect((await login(body.email as string, body.password as string)).statusCode).toBe(200);
  });
});

describe('password reset', () => {
  it('answers the same whether or not the account exists, and sends a code only to a real one', async () => {
    const { body } = await signUp(h);
    const known = await requestReset(body.email as string);
    const unknown = await requestReset('no-such-person@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(await codeSentTo(h, body.email as string)).toMatch(/^\d{6}$/);
    expect(await lastMessageTo(h, 'no-such-person@example.com')).toBeUndefined();
    const stored = await h.db.selectFrom('password_reset_codes').select('code_hash').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(stored.code_hash).toMatch(/^[0-9a-f]{64}$/); // hashed, not the code
  });

  it('sends the code by SMS when the username is a phone number', async () => {
    const { body } = await signUp(h);
    await requestReset(body.phoneNumber as string);
    expect((await lastMessageTo(h, body.phoneNumber as string))?.channel).toBe('sms');
  });

  it('resets with the code: the old password and older tokens stop working, the code is spent', async () => {
    const { body, token } = await signUp(h);
    await requestReset(body.email as string);
    const code = await codeSentTo(h, body.email as string);
    const res = await reset({ username: body.email, resetCode: code, password: 'fresh-Pass1', passwordConfirm: 'fresh-Pass1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ statusCode: 200, success: true, message: 'Password reset; log in with the new password' });
    expect((await login(body.email as string, 'fresh-Pass1')).statusCode).toBe(200);
    expect((await login(body.email as string, body.password as string)).statusCode).toBe(401);
    expect((await h.call({ method: 'POST', url: '/api/v1/auth/logout', token })).statusCode).toBe(401);
    const again = await reset({ username: body.email, resetCode: code, password: 'other-Pass1', passwordConfirm: 'other-Pass1' });
    expect(again.json().code).toBe('INVALID_RESET_CODE');
  });

  it('allows 5 tries per code: after 5 wrong codes the right one fails too', async () => {
    const { body } = await signUp(h);
    await requestReset(body.email as string);
    const code = await codeSentTo(h, body.email as string);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      const res = await reset({ username: body.email, resetCode: wrong, password: 'fresh-Pass1', passwordConfirm: 'fresh-Pass1' });
      expect(res.json()).toEqual({ statusCode: 400, requestId: expect.any(String), message: 'The reset code is invalid or has expired', error: 'Bad Request', code: 'INVALID_RESET_CODE' });
    }
    const right = await reset({ username: body.email, resetCode: code, password: 'fresh-Pass1', passwordConfirm: 'fresh-Pass1' });
    expect(right.json().code).toBe('INVALID_RESET_CODE');
  });

  it('expires a code after 15 minutes, and a new request replaces the old code', async () => {
    const { body } = await signUp(h);
    await requestReset(body.email as string);
    const first = await codeSentTo(h, body.email as string);
    h.clock.advance(16 * 60 * 1000);
    expect((await reset({ username: body.email, resetCode: first, password: 'fresh-Pass1', passwordConfirm: 'fresh-Pass1' })).json().code)
      .toBe('INVALID_RESET_CODE');
    await requestReset(body.email as string);
    const second = await codeSentTo(h, body.email as string);
    await requestReset(body.email as string);
    const third = await codeSentTo(h, body.email as string);
    if (second !== third) {
      expect((await reset({ username: body.email, resetCode: second, password: 'fresh-Pass1', passwordConfirm: 'fresh-Pass1' })).json().code)
        .toBe('INVALID_RESET_CODE');
    }
    expect((await reset({ username: body.email, resetCode: third, password: 'fresh-Pass1', passwordConfirm: 'fresh-Pass1' })).statusCode).toBe(200);
  });

  it('checks the seed bounds and that passwordConfirm equals password', async () => {
    const { body } = await signUp(h);
    const base = { username: body.email, resetCode: '123456', password: 'fresh-Pass1', passwordConfirm: 'fresh-Pass1' };
    const cases: [object, string][] = [
      [{ ...base, resetCode: '12345' }, 'body.resetCode must NOT have fewer than 6 characters'],
      [{ ...base, resetCode: '12a456' }, 'body.resetCode must match pattern "^[0-9]+$"'],
      [{ ...base, password: 'abcd', passwordConfirm: 'abcd' }, 'body.password must NOT have fewer than 5 characters'],
      [{ ...base, password: 'x'.repeat(31), passwordConfirm: 'x'.repeat(31) }, 'body.password must NOT have more than 30 characters'],
      [{ ...base, passwordConfirm: 'different-1' }, 'body.passwordConfirm must equal body.password'],
      [{ username: body.email, resetCode: '123456', password: 'fresh-Pass1' }, 'body.passwordConfirm is required'],
    ];
    for (const [payload, message] of cases) {
      const res = await reset(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('gives an unknown username the same answer as a wrong code', async () => {
    const res = await reset({ username: 'ghost@example.com', resetCode: '123456', password: 'fresh-Pass1', passwordConfirm: 'fresh-Pass1' });
    expect(res.json().code).toBe('INVALID_RESET_CODE');
  });

  it('limits reset requests per account to 3 an hour', async () => {
    const body = individualBody();
    await signUp(h, body);
    for (let i = 0; i < 3; i += 1) expect((await requestReset(body.email as string)).statusCode).toBe(200);
    const limited = await requestReset(body.email as string);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
