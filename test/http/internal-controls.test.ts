import { buyHomePolicy, corporateBody, individualBody, onlineProductId, setOwnPassword, staffClientBody } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { staffSession } from '../helpers/staff.js';

/**
 * Internal controls of issue 27, each finding reproduced as it was found and now refused:
 * - four eyes over a client account staff opened: a head of department opened an account with a
 *   password of their choosing, signed in as the client, recorded CASH through
 *   `/client/transactions` and approved it. Since 1.2 staff choose no password (400 naming
 *   `body.password`), and whoever opened the account (so chose where its set-up code goes) or last
 *   set its credentials may not approve its payments (403 CREDENTIALS_SET_BY_APPROVER);
 * - claims authority (below).
 */

type Session = Awaited<ReturnType<typeof staffSession>>;
let h: Harness;
let head: Session;
let branchManager: Session;
let exec: Session;
let homeProduct: string;

beforeAll(async () => {
  h = await createHarness();
  [head, branchManager, exec] = await Promise.all(['head.sales', 'branch.manager', 'exec'].map((handle) => staffSession(h, handle)));
  homeProduct = await onlineProductId(h, 'HOME');
}, 120_000);
afterAll(async () => { await h.close(); });

const expectError = (res: { statusCode: number; json(): any }, status: number, code: string, message?: RegExp) => {
  expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });
  if (message) expect(res.json().message).toMatch(message);
};
const approve = (as: { token: string }, id: string) => h.call({ method: 'POST', url: `/api/v1/staff/transactions/${id}/approve`, token: as.token });

/** A client `as` opens (no password), which sets its own with the code sent to the e-mail `as` chose, signs in and records CASH for its new policy. */
async function staffMadeClientPaysCash(as: Session) {
  const body = staffClientBody(individualBody());
  const opened = await h.call({ method: 'POST', url: '/api/v1/staff/clients', token: as.token, payload: body });
  expect(opened.statusCode).toBe(201);
  // Whoever reads the inbox the opener chose holds the way in: here the opener reads the set-up code.
  const password = await setOwnPassword(h, body.email);
  const login = await h.call({ method: 'POST', url: '/api/v1/auth/login', payload: { username: body.email, password } });
  expect(login.statusCode).toBe(200);
  const token = login.json().data.accessToken as string;
  const policy = await buyHomePolicy(h, token, homeProduct);
  const cash = await h.call({ method: 'POST', url: '/api/v1/client/transactions', token,
    payload: { invoiceId: policy.invoiceId, paymentMethod: 'CASH', transactionType: 'NEW_BUSINESS' } });
  expect(cash.statusCode).toBe(201);
  return { clientId: opened.json().data.id as string, transactionId: cash.json().data.id as string };
}

describe('createStaffClient: staff never choose a client\'s password (contract 1.2)', () => {
  it('refuses a body with a password, 400 naming the password, for people and companies alike', async () => {
    for (const body of [staffClientBody(individualBody()), staffClientBody(corporateBody())]) {
      const res = await h.call({ method: 'POST', url: '/api/v1/staff/clients', token: head.token, payload: { ...body, password: 'Chosen-By-Head-1' } });
      expectError(res, 400, 'VALIDATION_ERROR', /^body has an unknown property 'password'$/);
    }
  });

  it('records the opener as having chosen the way in, and sends the client its set-up code', async () => {
    const body = staffClientBody(individualBody());
    const res = await h.call({ method: 'POST', url: '/api/v1/staff/clients', token: head.token, payload: body });
    expect(res.statusCode).toBe(201);
    const row = await h.db.selectFrom('clients').select(['password_hash', 'credentials_set_by_staff_id', 'created_by_staff_id'])
      .where('id', '=', res.json().data.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ password_hash: null, credentials_set_by_staff_id: head.id, created_by_staff_id: head.id });
    const code = await h.db.selectFrom('outbox').select('template').where('recipient', '=', body.email).where('template', '=', 'set-password-code').execute();
    expect(code).toHaveLength(1);
  });
});

describe('approveTransaction: four eyes over a client account staff opened', () => {
  it('refuses the head who opened the account, signed in as the client and recorded CASH (403 CREDENTIALS_SET_BY_APPROVER); another supervisor approves', async () => {
    const { transactionId } = await staffMadeClientPaysCash(head);
    const refused = await approve(head, transactionId);
    expectError(refused, 403, 'CREDENTIALS_SET_BY_APPROVER', /opened the account of the client paying TRX-\d+/);
    const still = await h.db.selectFrom('transactions').select('status').where('id', '=', transactionId).executeTakeFirstOrThrow();
    expect(still.status).toBe('PENDING_APPROVAL');
    // Positive control: a supervisor who had no way into the account approves it.
    const approved = await approve(branchManager, transactionId);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data).toMatchObject({ status: 'APPROVED', reviewedBy: { id: branchManager.id } });
  });

  it('refuses whoever last set the client\'s credentials (a password, e-mail or phone set by staff), as well as the opener', async () => {
    const { clientId, transactionId } = await staffMadeClientPaysCash(head);
    // No staff call sets a client's credentials in 1.2; any that does records itself here, as this stands for.
    await h.db.updateTable('clients').set({ credentials_set_by_staff_id: branchManager.id }).where('id', '=', clientId).execute();
    expectError(await approve(branchManager, transactionId), 403, 'CREDENTIALS_SET_BY_APPROVER', /last set the credentials of the client paying/);
    expectError(await approve(head, transactionId), 403, 'CREDENTIALS_SET_BY_APPROVER');
    const approved = await approve(exec, transactionId);
    expect(approved.statusCode).toBe(200);
  });

  it('leaves rejection to anyone within reach, the opener included (money that never came is not a payout)', async () => {
    const { transactionId } = await staffMadeClientPaysCash(head);
    const res = await h.call({ method: 'POST', url: `/api/v1/staff/transactions/${transactionId}/reject`, token: head.token,
      payload: { reason: 'No cash was handed over at the counter' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('REJECTED');
  });
});
