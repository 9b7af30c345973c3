import { randomUUID } from 'node:crypto';
import { createHarness, type Harness } from '../helpers/harness.js';
import { signUp } from '../helpers/clients.js';
import { sandboxStaff, staffSession } from '../helpers/staff.js';

/**
 * A staff member's own inbox (`/staff/me/notifications`), served by the same domain piece as a
 * client's (`server/domain/accounts/inbox.ts`): a page by status, one, marked read or unread,
 * removed; nobody else's (another staff member's, a client's, another tenant's) is ever found.
 */

let h: Harness;
let officer: string;
let head: string;
let clientNotification: string;
const OFFICER = sandboxStaff('officer').id;
const HEAD = sandboxStaff('head.sales').id;

beforeAll(async () => {
  h = await createHarness();
  officer = (await staffSession(h, 'officer')).token;
  head = (await staffSession(h, 'head.sales')).token;
  const base = Date.parse('2026-01-01T00:00:00Z');
  await h.db.insertInto('notifications').values(Array.from({ length: 5 }, (_, i) => ({
    tenant_id: h.tenantId, staff_id: OFFICER, entity: JSON.stringify(null), title: `Notice ${i}`, body: `Body ${i}`,
    status: i < 2 ? 'read' as const : 'unread' as const, read_at: i < 2 ? new Date(base) : null, created_at: new Date(base + i * 60_000),
  }))).execute();
  await h.db.insertInto('notifications').values({
    tenant_id: h.tenantId, staff_id: HEAD, entity: JSON.stringify(null), title: 'For the head', body: 'Not the officer\'s', status: 'unread',
  }).execute();
  const client = await signUp(h);
  clientNotification = (await h.db.selectFrom('notifications').select('id').where('client_id', '=', client.account.id).executeTakeFirstOrThrow()).id;
});
afterAll(async () => { await h.close(); });

const call = (token: string, method: 'GET' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  h.call({ method, url: `/api/v1/staff/me/notifications${url}`, token, ...(payload && { payload }) });

const idOf = async (title: string) =>
  (await h.db.selectFrom('notifications').select('id').where('staff_id', '=', OFFICER).where('title', '=', title).executeTakeFirstOrThrow()).id;

describe('listStaffNotifications: GET /staff/me/notifications', () => {
  it('pages the staff member\'s own notifications, newest first, by status', async () => {
    const all = await call(officer, 'GET', '?limit=2');
    expect(all.statusCode).toBe(200);
    expect(all.json().data.map((n: { title: string }) => n.title)).toEqual(['Notice 4', 'Notice 3']);
    expect(all.json().paginator).toMatchObject({ itemsCount: 5, pageCount: 3, hasNextPage: true });
    const read = (await call(officer, 'GET', '?status=read')).json();
    expect(read.data.map((n: { title: string }) => n.title)).toEqual(['Notice 1', 'Notice 0']);
    expect(read.data[0]).toMatchObject({ status: 'read', readAt: '2026-01-01T00:00:00.000Z', entity: null, body: 'Body 1' });
    expect((await call(officer, 'GET', '?status=unread')).json().paginator.itemsCount).toBe(3);
    expect((await call(head, 'GET', '')).json().data.map((n: { title: string }) => n.title)).toEqual(['For the head']);
  });

  it('validates the query', async () => {
    expect((await call(officer, 'GET', '?status=seen')).json()).toMatchObject({ statusCode: 400, message: 'query.status must be one of: read, unread' });
    expect((await call(officer, 'GET', '?limit=0')).json()).toMatchObject({ statusCode: 400, message: 'query.limit must be >= 1' });
    expect((await call(officer, 'GET', '?page=0')).json()).toMatchObject({ statusCode: 400, message: 'query.page must be >= 1' });
  });
});

describe('getStaffNotification, updateStaffNotificationStatus, deleteStaffNotification: GET, PATCH and DELETE /staff/me/notifications/{id}', () => {
  it('reads one, marks it read and unread again, and deletes it', async () => {
    const id = await idOf('Notice 3');
    const one = await call(officer, 'GET', `/${id}`);
    expect(one.json().data).toMatchObject({ id, title: 'Notice 3', status: 'unread', readAt: null });
    const read = await call(officer, 'PATCH', `/${id}`, { status: 'read', readAt: '2026-01-02T08:00:00Z' });
    expect(read.json().data).toMatchObject({ id, status: 'read', readAt: '2026-01-02T08:00:00.000Z' });
    expect((await call(officer, 'PATCH', `/${id}`, { status: 'unread' })).json().data).toMatchObject({ status: 'unread', readAt: null });
    expect((await call(officer, 'DELETE', `/${id}`)).json()).toEqual({ statusCode: 200, success: true, message: 'Notification deleted' });
    expect((await call(officer, 'GET', `/${id}`)).json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND', message: 'Notification not found' });
  });

  it('holds the status rules: readAt with read only, never in the future, status one of read or unread', async () => {
    const id = await idOf('Notice 2');
    const cases: [object, string][] = [
      [{ status: 'read' }, 'body.readAt is required when body.status is read'],
      [{ status: 'unread', readAt: '2026-01-02T08:00:00Z' }, 'body.readAt is not allowed when body.status is unread'],
      [{ status: 'read', readAt: '2999-01-01T00:00:00Z' }, 'body.readAt must not be in the future'],
      [{ status: 'READ' }, 'body.status must be one of: read, unread'],
      [{}, 'body.status is required'],
    ];
    for (const [payload, message] of cases) {
      expect((await call(officer, 'PATCH', `/${id}`, payload)).json()).toMatchObject({ statusCode: 400, message });
    }
    expect((await call(officer, 'GET', '/not-a-uuid')).json()).toMatchObject({ statusCode: 400, message: 'params.notificationId must match format "uuid"' });
  });

  it('never finds another staff member\'s, a client\'s or an unknown notification', async () => {
    const theHeads = (await h.db.selectFrom('notifications').select('id').where('staff_id', '=', HEAD).executeTakeFirstOrThrow()).id;
    for (const id of [theHeads, clientNotification, randomUUID()]) {
      expect((await call(officer, 'GET', `/${id}`)).statusCode).toBe(404);
      expect((await call(officer, 'PATCH', `/${id}`, { status: 'unread' })).statusCode).toBe(404);
      expect((await call(officer, 'DELETE', `/${id}`)).statusCode).toBe(404);
    }
    expect((await call(head, 'GET', `/${theHeads}`)).statusCode).toBe(200);
  });

  it('is the staff member\'s: a client token answers 403 WRONG_TOKEN_KIND, another tenant\'s key 401', async () => {
    const { token } = await signUp(h);
    const id = await idOf('Notice 1');
    for (const [method, url] of [['GET', ''], ['GET', `/${id}`], ['PATCH', `/${id}`], ['DELETE', `/${id}`]] as const) {
      expect((await call(token, method, url, method === 'PATCH' ? { status: 'unread' } : undefined)).json()).toMatchObject({ statusCode: 403, code: 'WRONG_TOKEN_KIND' });
    }
    const wrongKey = await h.call({ method: 'GET', url: '/api/v1/staff/me/notifications', token: officer, apiKey: h.otherApiKey });
    expect(wrongKey.json()).toMatchObject({ statusCode: 401, code: 'INVALID_TOKEN' });
    // And the client's own inbox still works through the same code.
    expect((await h.call({ method: 'GET', url: '/api/v1/client/account/notifications', token })).statusCode).toBe(200);
  });

  it('lets every type and position read their own inbox (an agent too)', async () => {
    const agent = (await staffSession(h, 'agent')).token;
    expect((await call(agent, 'GET', '')).statusCode).toBe(200);
  });
});
