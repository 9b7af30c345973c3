import { randomUUID } from 'node:crypto';
import { jobHandlers, PRUNE_EVENTS_QUEUE, RECURRING } from '../../server/app/jobs.js';
import { KEEP_EVENTS_MS, pruneEvents } from '../../server/platform/event-retention.js';
import { signUp } from '../helpers/clients.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { staffSession } from '../helpers/staff.js';

/**
 * The company's business events as integrators read them: only its own public events (those with
 * a payload), newest first, filtered and paged; executive managers only; deleted after 30 days by
 * the `events.prune` job. The rows are written here as the recorder would write them (payloads are
 * filled by `recordEvent`'s own work), for both tenants, with one internal event among them.
 */

let h: Harness;
let exec: string;

beforeAll(async () => {
  h = await createHarness();
  exec = (await staffSession(h, 'exec')).token;
}, 120_000);
afterAll(async () => { await h.close(); });

type EventRow = { id: string; type: string; objectId: string; objectType: string; at: string; payload: Record<string, unknown> | null };
const INVOICE = randomUUID();
const CLOSURE = randomUUID();
const MANDATE = randomUUID();
const EXEC_ID = randomUUID();

/** A domain_events row of `tenantId`, written directly; a null payload is an internal event. */
async function insertEvent(tenantId: string, row: Omit<EventRow, 'id'>, previous: Record<string, unknown> | null = null): Promise<EventRow> {
  const { id } = await h.db.insertInto('domain_events').values({
    tenant_id: tenantId, type: row.type, actor_kind: 'staff', actor_id: EXEC_ID, object_type: row.objectType, object_id: row.objectId,
    data: JSON.stringify({}), previous: previous === null ? null : JSON.stringify(previous), created_at: new Date(row.at),
    payload: row.payload === null ? null : JSON.stringify(row.payload), api_version: row.payload === null ? null : '1.2',
  }).returning('id').executeTakeFirstOrThrow();
  return { id, ...row };
}

const paid = (at: string, objectId = INVOICE) => ({ type: 'invoice.paid', objectType: 'invoice', objectId, at, payload: { id: objectId, status: 'PAID', amount: 3722.5 } });
const approved = (at: string) => ({ type: 'policyClosure.approved', objectType: 'policyClosure', objectId: CLOSURE, at, payload: { id: CLOSURE, status: 'APPROVED' } });
const debit = (at: string) => ({ type: 'directDebit.created', objectType: 'directDebit', objectId: MANDATE, at, payload: { id: MANDATE, status: 'ACTIVE' } });

const get = (url: string, token = exec, apiKey?: string) => h.call({ method: 'GET', url: `/api/v1${url}`, token, ...(apiKey && { apiKey }) });

/** Every event the list answers for `query`, walked through the cursor `limit` at a time. */
async function walk(query: string, limit = 2): Promise<{ id: string; createdAt: string }[]> {
  const events: { id: string; createdAt: string }[] = [];
  let after: string | null = null;
  do {
    const res = await get(`/staff/events?limit=${limit}${query ? `&${query}` : ''}${after ? `&after=${after}` : ''}`);
    expect({ status: res.statusCode, body: res.statusCode === 200 ? undefined : res.json() }).toEqual({ status: 200, body: undefined });
    events.push(...res.json().data);
    after = res.json().paginator.nextCursor;
  } while (after);
  return events;
}

describe('listEvents: GET /staff/events, getEvent: GET /staff/events/{id}', () => {
  let mine: EventRow[];
  let internal: EventRow;
  let theirs: EventRow;
  const ids = async (query = '') => (await walk(query)).map((event) => event.id).filter((id) => mine.some((row) => row.id === id));

  beforeAll(async () => {
    // Oldest first; two at the same instant (the id breaks the tie, newest first).
    mine = [
      await insertEvent(h.tenantId, debit('2030-01-10T08:00:00.000Z')),
      await insertEvent(h.tenantId, paid('2030-01-11T09:00:00.000Z'), { status: 'UNPAID' }),
      await insertEvent(h.tenantId, approved('2030-01-12T10:00:00.000Z')),
      await insertEvent(h.tenantId, paid('2030-01-12T10:00:00.000Z', randomUUID())),
      await insertEvent(h.tenantId, paid('2030-01-13T23:59:59.999Z')),
    ];
    internal = await insertEvent(h.tenantId, { ...paid('2030-01-12T12:00:00.000Z'), payload: null });
    theirs = await insertEvent(h.otherTenantId, paid('2030-01-12T11:00:00.000Z'));
  });

  /** `mine` as the list orders them: newest first, the greater id first on a tie. */
  const newestFirst = (rows: EventRow[]) => [...rows].sort((a, b) => b.at.localeCompare(a.at) || (a.id < b.id ? 1 : -1)).map((row) => row.id);

  it('answers the company\'s public events, newest first, in the webhook envelope; internal and other companies\' events are not there', async () => {
    const all = await walk('', 100);
    expect(all.map((event) => event.createdAt)).toEqual([...all.map((event) => event.createdAt)].sort().reverse());
    expect(all.map((event) => event.id)).not.toContain(internal.id);
    expect(all.map((event) => event.id)).not.toContain(theirs.id);
    expect(await ids()).toEqual(newestFirst(mine));

    const res = await get(`/staff/events?objectId=${INVOICE}&limit=1`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      statusCode: 200, success: true,
      data: [{
        id: mine[4].id, type: 'invoice.paid', createdAt: '2030-01-13T23:59:59.999Z', apiVersion: '1.2',
        actor: { by: 'staff', id: EXEC_ID }, object: { type: 'invoice', id: INVOICE },
        data: { object: { id: INVOICE, status: 'PAID', amount: 3722.5 }, previous: null },
      }],
      paginator: expect.objectContaining({ itemsCount: 2, limit: 1, page: 1, hasNextPage: true, nextCursor: expect.any(String) }),
    });
  });

  it('filters by type (one or several), object and creation days, combined', async () => {
    expect(await ids('type=invoice.paid')).toEqual(newestFirst(mine.filter((row) => row.type === 'invoice.paid')));
    expect(await ids('type=invoice.paid&type=directDebit.created')).toEqual(newestFirst(mine.filter((row) => row.type !== 'policyClosure.approved')));
    expect(await ids(`objectId=${INVOICE}`)).toEqual([mine[4].id, mine[1].id]);
    expect(await ids(`objectId=${INVOICE}&type=policyClosure.approved`)).toEqual([]);
    // Days are UTC and both ends included; the day-month-year form too.
    expect(await ids('createdFrom=2030-01-11&createdTo=2030-01-12')).toEqual(newestFirst(mine.slice(1, 4)));
    expect(await ids('createdFrom=13-01-2030')).toEqual([mine[4].id]);
    expect(await ids('createdTo=2030-01-10')).toEqual([mine[0].id]);
    expect(await ids(`createdFrom=2030-01-12&createdTo=2030-01-12&type=invoice.paid`)).toEqual([mine[3].id]);
  });

  it('pages through the cursor visiting every event once, and by page numbers the same way', async () => {
    const walked = (await walk('createdFrom=2030-01-10&createdTo=2030-01-13', 2)).map((event) => event.id);
    expect(walked).toEqual(newestFirst(mine));
    const pages: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const res = await get(`/staff/events?createdFrom=2030-01-10&createdTo=2030-01-13&limit=2&page=${page}`);
      expect(res.json().paginator).toMatchObject({ itemsCount: 5, pageCount: 3, page });
      pages.push(...res.json().data.map((event: { id: string }) => event.id));
    }
    expect(pages).toEqual(walked);
  });

  it('reads one event by id; another company\'s, an internal one and an unknown id are 404', async () => {
    const res = await get(`/staff/events/${mine[1].id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      statusCode: 200, success: true,
      data: {
        id: mine[1].id, type: 'invoice.paid', createdAt: '2030-01-11T09:00:00.000Z', apiVersion: '1.2',
        actor: { by: 'staff', id: EXEC_ID }, object: { type: 'invoice', id: INVOICE },
        data: { object: { id: INVOICE, status: 'PAID', amount: 3722.5 }, previous: { status: 'UNPAID' } },
      },
    });
    for (const id of [theirs.id, internal.id, randomUUID()]) {
      const missing = await get(`/staff/events/${id}`);
      expect({ id, status: missing.statusCode, body: missing.json() })
        .toEqual({ id, status: 404, body: { statusCode: 404, requestId: expect.any(String), error: 'Not Found', code: 'NOT_FOUND', message: 'Event not found' } });
    }
  });

  it('is for executive managers: other staff 403 NOT_PERMITTED, a client token 403 WRONG_TOKEN_KIND', async () => {
    for (const handle of ['branch.manager', 'head.sales', 'officer', 'agent']) {
      const { token } = await staffSession(h, handle);
      for (const url of ['/staff/events', `/staff/events/${mine[0].id}`]) {
        const res = await get(url, token);
        expect({ handle, url, status: res.statusCode, code: res.json().code }).toEqual({ handle, url, status: 403, code: 'NOT_PERMITTED' });
      }
    }
    const { token } = await signUp(h);
    for (const url of ['/staff/events', `/staff/events/${mine[0].id}`]) {
      const res = await get(url, token);
      expect({ url, status: res.statusCode, code: res.json().code }).toEqual({ url, status: 403, code: 'WRONG_TOKEN_KIND' });
    }
  });

  it('refuses bad filters and ids: 400 VALIDATION_ERROR naming the parameter', async () => {
    const cursor = (await get('/staff/events?limit=1')).json().paginator.nextCursor;
    for (const [query, message] of [
      ['type=invoice.refunded', /^query\.type/],
      ['objectId=INV-0012', /^query\.objectId must match format "uuid"/],
      ['createdFrom=2030-02-30', /^query\.createdFrom is not a real date/],
      ['createdTo=yesterday', /^query\.createdTo/],
      ['after=bm90LWEtY3Vyc29y', /^query\.after is not a valid cursor/],
      [`after=${cursor}&page=2`, /^query\.after cannot be given with query\.page/],
      ['limit=501', /^query\.limit/],
    ] as [string, RegExp][]) {
      const res = await get(`/staff/events?${query}`);
      expect({ query, status: res.statusCode, code: res.json().code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
      expect(res.json().message).toMatch(message);
    }
    const res = await get('/staff/events/not-an-id');
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
  });
});

describe('events kept 30 days (the events.prune job)', () => {
  const NOW = new Date('2031-06-30T12:00:00.000Z');
  const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
  const exists = async (id: string) => (await h.db.selectFrom('domain_events').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  it('runs daily', () => {
    expect(RECURRING).toContainEqual({ queue: PRUNE_EVENTS_QUEUE, everyMs: 24 * 3600_000 });
  });

  it('deletes every company\'s events older than 30 days at the job\'s time, with their webhook deliveries, and keeps the newer', async () => {
    const day = 24 * 3600_000;
    const old = [
      await insertEvent(h.tenantId, paid(ago(31 * day), randomUUID())),
      await insertEvent(h.tenantId, { ...paid(ago(KEEP_EVENTS_MS + 1), randomUUID()), payload: null }),
      await insertEvent(h.otherTenantId, paid(ago(45 * day), randomUUID())),
    ];
    const kept = [
      await insertEvent(h.tenantId, paid(ago(KEEP_EVENTS_MS), randomUUID())), // exactly 30 days: kept
      await insertEvent(h.tenantId, paid(ago(29 * day), randomUUID())),
      await insertEvent(h.otherTenantId, paid(ago(1000), randomUUID())),
    ];
    // A delivery of an old event goes with it (on delete cascade).
    const at = new Date(ago(31 * day));
    const endpoint = await h.db.insertInto('webhook_endpoints').values({ tenant_id: h.tenantId, url: 'https://hooks.example/coverline', secret: 'whsec_test', created_at: at, updated_at: at })
      .returning('id').executeTakeFirstOrThrow();
    await h.db.insertInto('webhook_deliveries').values({ tenant_id: h.tenantId, endpoint_id: endpoint.id, event_id: old[0].id, created_at: at, updated_at: at }).execute();

    const prune = jobHandlers(h.app.services)[PRUNE_EVENTS_QUEUE];
    await prune({} as Parameters<typeof prune>[0], NOW);
    for (const row of old) expect({ at: row.at, exists: await exists(row.id) }).toEqual({ at: row.at, exists: false });
    for (const row of kept) expect({ at: row.at, exists: await exists(row.id) }).toEqual({ at: row.at, exists: true });
    expect(await h.db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', old[0].id).execute()).toEqual([]);
  });

  it('deletes in batches until none is left (one delete never takes more than a batch)', async () => {
    const rows = [];
    for (let n = 0; n < 7; n += 1) rows.push(await insertEvent(h.tenantId, paid(ago(40 * 24 * 3600_000 + n), randomUUID())));
    expect(await pruneEvents(h.db, NOW, { batch: 3 })).toBe(7);
    for (const row of rows) expect(await exists(row.id)).toBe(false);
    expect(await pruneEvents(h.db, NOW, { batch: 3 })).toBe(0);
  });
});
