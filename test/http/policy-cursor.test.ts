import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { encodeCursor } from '../../server/platform/export/listing.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { plusDays, signUp } from '../helpers/clients.js';
import { staffSession } from '../helpers/staff.js';

// Keyset (cursor) paging of the newest-first lists, the policy lists above all: `after` and `paginator.nextCursor`.
let h: Harness;
let bulk: Awaited<ReturnType<typeof signUp>>;
let other: Awaited<ReturnType<typeof signUp>>;
/** The bulk client's policy numbers, newest first (id breaking ties), as the database orders them. */
let order: string[];
const start = plusDays(10);
const end = plusDays(374);
let autoProduct: string;
const autoPolicy = (generateInvoice: boolean) => ({
  policyType: 'AUTO', currency: 'GHS', startDate: start, endDate: end, productId: autoProduct, businessType: 'NEW_BUSINESS', generateInvoice,
  assets: [{ coverage: 'COMPREHENSIVE', riskType: 'PRIVATE_INDIVIDUAL', make: 'Toyota', model: 'Corolla', registrationNo: 'GR 1234-24',
    chassisNumber: 'JTDBR32E720123456', cubicCapacity: 1800, seats: 5, bodyType: 'SALOON', usage: 'PRIVATE', sumInsured: 85000,
    noClaimDiscountYears: 2, policyExcess: 10, yearOfMake: 2019 }],
});

beforeAll(async () => {
  h = await createHarness();
  bulk = await signUp(h);
  other = await signUp(h);
  autoProduct = (await h.db.selectFrom('products').select('id').where('distribution', '=', 'ONLINE').where('category', '=', 'AUTO')
    .executeTakeFirstOrThrow()).id;
  // A policy made through the API (by a third client) lends its premium breakdown to the copies.
  const template = await h.call({ method: 'POST', url: '/api/v1/client/policies', token: (await signUp(h)).token, payload: autoPolicy(false) });
  expect(template.statusCode).toBe(201);
  const breakdown = sql`(select premium_breakdown from policies where id = ${template.json().data.id}::uuid)`;
  // 40 policies: 15 created in the same instant (the id orders them), then one microsecond apart
  // (which a JavaScript Date cannot tell apart); every third one ACTIVE, the others DRAFT.
  await sql`insert into policies (tenant_id, policy_no, client_id, product_id, policy_type, state, business_type, business_category,
      currency, exchange_rate, premium, premium_breakdown, start_date, end_date, generate_invoice, created_at, updated_at)
    select ${h.tenantId}::uuid, 'KEYSET-' || g, ${bulk.account.id}::uuid, ${autoProduct}::uuid, 'AUTO',
      case when g % 3 = 0 then 'ACTIVE' else 'DRAFT' end, 'NEW_BUSINESS', 'LOCAL',
      'GHS', 1, 100, ${breakdown}, ${start}::date, ${end}::date, false, at, at
    from generate_series(1, 40) g,
      lateral (select '2026-01-01 00:00:00.123456+00'::timestamptz - make_interval(secs => greatest(g - 15, 0) / 1e6) as at) t`.execute(h.db);
  order = (await h.db.selectFrom('policies').select('policy_no').where('client_id', '=', bulk.account.id)
    .orderBy('created_at', 'desc').orderBy('id', 'desc').execute()).map((row) => row.policy_no);
});
afterAll(async () => { await h.close(); });

type Page = { data: { policyNo: string; client: { id: string } }[]; paginator: Record<string, unknown> & { nextCursor: string | null } };
const list = async (query: string, token = bulk.token, base = '/api/v1/client/policies') => {
  const res = await h.call({ method: 'GET', url: `${base}?${query}`, token });
  expect(res.statusCode).toBe(200);
  return res.json() as Page;
};
/** Walks a list by `nextCursor` from its first page (or from the page after `from`): every page, in order. */
async function walk(query: string, token = bulk.token, base?: string, from?: string): Promise<Page[]> {
  const pages = [await list(from === undefined ? query : `${query}&after=${from}`, token, base)];
  while (pages[pages.length - 1].paginator.nextCursor !== null) {
    expect(pages.length).toBeLessThan(100);
    pages.push(await list(`${query}&after=${pages[pages.length - 1].paginator.nextCursor}`, token, base));
  }
  return pages;
}
const numbers = (pages: Page[]) => pages.flatMap((page) => page.data.map((p) => p.policyNo));
const bad = async (query: string, token = bulk.token) => {
  const res = await h.call({ method: 'GET', url: `/api/v1/client/policies?${query}`, token });
  expect(res.statusCode).toBe(400);
  return res.json().message as string;
};

describe('listPolicies: GET /client/policies?after=', () => {
  it('walks every policy exactly once, newest first, across pages (ties and microseconds included)', async () => {
    const pages = await walk('limit=7');
    expect(numbers(pages)).toEqual(order);
    expect(pages.map((p) => p.data.length)).toEqual([7, 7, 7, 7, 7, 5]);
    // Each page says where it sits, as the numbered page would.
    pages.forEach((page, i) => expect(page.paginator).toMatchObject({
      itemsCount: 40, pageCount: 6, limit: 7, offset: i * 7, page: i + 1, pagingCounter: i * 7 + 1,
      hasPrevPage: i > 0, prevPage: i > 0 ? i : null, hasNextPage: i < 5, nextPage: i < 5 ? i + 2 : null,
    }));
    expect(pages[5].paginator.nextCursor).toBeNull();
    // A numbered page carries the cursor too, and the cursor page after it is the next numbered page.
    const third = await list('limit=7&page=3');
    expect(third.paginator.nextCursor).toBe(pages[2].paginator.nextCursor);
    expect(numbers([await list(`limit=7&after=${third.paginator.nextCursor}`)])).toEqual(numbers([await list('limit=7&page=4')]));
    // A limit that divides the list: the last full page says there is no next one.
    const even = await walk('limit=10');
    expect(even.map((p) => p.data.length)).toEqual([10, 10, 10, 10]);
    expect(numbers(even)).toEqual(order);
  });

  it('keeps the filters, and a new policy does not shift a walk', async () => {
    const active = order.filter((no) => Number(no.slice('KEYSET-'.length)) % 3 === 0);
    const first = await list('limit=4&state=ACTIVE');
    // A policy created mid-walk is newer than every cursor: it neither repeats nor pushes rows along.
    await sql`insert into policies (tenant_id, policy_no, client_id, product_id, policy_type, state, business_type, business_category,
        currency, exchange_rate, premium, premium_breakdown, start_date, end_date, generate_invoice, created_at, updated_at)
      select tenant_id, 'KEYSET-LATE', client_id, product_id, policy_type, 'ACTIVE', business_type, business_category, currency, exchange_rate,
        premium, premium_breakdown, start_date, end_date, generate_invoice, now(), now()
      from policies where policy_no = 'KEYSET-3' and client_id = ${bulk.account.id}::uuid`.execute(h.db);
    const rest = await walk('limit=4&state=ACTIVE', bulk.token, undefined, first.paginator.nextCursor!);
    expect(numbers([first, ...rest])).toEqual(active);
    expect(rest[0].paginator).toMatchObject({ itemsCount: active.length + 1, offset: 5 });
    await sql`delete from policies where policy_no = 'KEYSET-LATE' and client_id = ${bulk.account.id}::uuid`.execute(h.db);
  });

  it('refuses `after` with `page`, with usePagination=false, and a cursor it did not make', async () => {
    const cursor = (await list('limit=5')).paginator.nextCursor!;
    expect(await bad(`limit=5&page=1&after=${cursor}`)).toBe('query.after cannot be given with query.page: the cursor says where the page starts');
    expect(await bad(`after=${cursor}&usePagination=false`)).toBe('query.after cannot be given with usePagination=false');
    const invalid = 'query.after is not a valid cursor';
    const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
    const id = '6f2c4b2e-9e1e-4c7c-9b5a-3d2d8e1f0a7b';
    for (const tampered of [
      'not-a-cursor', `${cursor}!`, `${cursor.slice(0, -3)}`, b64('hello'), b64({ createdAt: '2026-01-01 00:00:00+00', id }),
      b64(['2026-01-01 00:00:00+00']), b64(['2026-13-01 00:00:00+00', id]), b64(['2026-02-30 00:00:00+00', id]),
      b64(['2026-01-01 25:00:00+00', id]), b64(['0000-01-01 00:00:00+00', id]), b64(['2026-01-01T00:00:00Z', id]),
      b64(['2026-01-01 00:00:00+00', 'not-a-uuid']), b64(["2026-01-01 00:00:00+00'; drop table policies; --", id]),
    ]) expect(await bad(`after=${encodeURIComponent(tampered)}`)).toBe(invalid);
    expect(await bad(`after=${'A'.repeat(201)}`)).toBe(invalid);
    expect(await bad('after=')).toBe(invalid);
    // A well-formed cursor of a row that is not there is simply a place in the list.
    const made = encodeCursor({ createdAt: '2026-01-01 00:00:00.123456+00', id: '00000000-0000-0000-0000-000000000000' });
    expect(numbers([await list(`limit=50&after=${made}`)])).toEqual(order.slice(15));
  });

  it("shows nothing of another client's with their cursor", async () => {
    const cursor = (await list('limit=5')).paginator.nextCursor!;
    const theirs = await list(`limit=5&after=${cursor}`, other.token);
    expect(theirs.data).toEqual([]);
    expect(theirs.paginator).toMatchObject({ itemsCount: 0, nextCursor: null });
  });

  it('exports a page after a cursor', async () => {
    const cursor = (await list('limit=9')).paginator.nextCursor!;
    const res = await h.call({ method: 'GET', url: `/api/v1/client/policies?format=excel&usePagination=true&assets=false&limit=9&after=${cursor}`, token: bulk.token });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.getWorksheet('Policies')!.getColumn(1).values.slice(2).map(String)).toEqual(order.slice(9, 18));
  });
});

describe('listStaffPolicies: GET /staff/policies?after=', () => {
  it("walks a client's policies by cursor, and refuses `after` with `page`", async () => {
    const exec = await staffSession(h, 'exec');
    const pages = await walk(`limit=6&clientId=${bulk.account.id}`, exec.token, '/api/v1/staff/policies');
    expect(numbers(pages)).toEqual(order);
    expect(pages[pages.length - 1].paginator.nextCursor).toBeNull();
    const res = await h.call({ method: 'GET', url: `/api/v1/staff/policies?page=2&after=${pages[0].paginator.nextCursor}`, token: exec.token });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('query.after cannot be given with query.page: the cursor says where the page starts');
  });
});

describe('the other newest-first lists', () => {
  it('walk by cursor too (a staff member\'s clients, a client\'s invoices)', async () => {
    const exec = await staffSession(h, 'exec');
    const ids = async (url: string, token: string) => {
      const res = await h.call({ method: 'GET', url, token });
      expect(res.statusCode).toBe(200);
      return res.json() as { data: { id: string }[]; paginator: { nextCursor: string | null } };
    };
    const walkIds = async (base: string, token: string) => {
      const seen: string[] = [];
      let page = await ids(`${base}?limit=2`, token);
      for (;;) {
        seen.push(...page.data.map((row) => row.id));
        if (page.paginator.nextCursor === null) return seen;
        page = await ids(`${base}?limit=2&after=${page.paginator.nextCursor}`, token);
      }
    };
    const clients = (await ids('/api/v1/staff/clients?limit=500', exec.token)).data.map((row) => row.id);
    expect(clients.length).toBeGreaterThan(2);
    expect(await walkIds('/api/v1/staff/clients', exec.token)).toEqual(clients);
    const buyer = await signUp(h);
    for (let i = 0; i < 5; i += 1) {
      expect((await h.call({ method: 'POST', url: '/api/v1/client/policies', token: buyer.token, payload: autoPolicy(true) })).statusCode).toBe(201);
    }
    const invoices = (await ids('/api/v1/client/invoices?limit=500', buyer.token)).data.map((row) => row.id);
    expect(invoices).toHaveLength(5);
    expect(await walkIds('/api/v1/client/invoices', buyer.token)).toEqual(invoices);
    const res = await h.call({ method: 'GET', url: '/api/v1/staff/clients?after=nope', token: exec.token });
    expect(res.json()).toMatchObject({ statusCode: 400, message: 'query.after is not a valid cursor' });
  });
});
