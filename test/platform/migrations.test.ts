import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../server/platform/db/database.js';
import { migrateDownAll, migrateToLatest } from '../../server/platform/db/migrate.js';
import { migrations } from '../../server/platform/db/migrations/index.js';
import { seedSandbox } from '../../server/platform/db/seed.js';

const url = process.env.DATABASE_URL;
const schema = url ? `m_${randomBytes(6).toString('hex')}` : undefined;
let handle: DatabaseHandle;

beforeAll(async () => {
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
  }
  handle = await openDatabase({ databaseUrl: url, dataDir: 'memory://', schema });
});
afterAll(async () => {
  await handle.close();
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
});

// Only this suite's schema: other suites create and drop tables on the same server meanwhile.
const tables = async () => {
  const { sql } = await import('kysely');
  const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(handle.db);
  return (await handle.db.introspection.getTables())
    .filter((t) => t.schema === rows[0].name && !t.name.startsWith('kysely_'))
    .map((t) => t.name).sort();
};

describe('migrations', () => {
  it('are listed in timestamp order', () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    for (const name of names) expect(name).toMatch(/^\d{8}_\d{3}_[a-z_]+$/);
  });

  it('run up, all the way down, and up again to the same schema', async () => {
    await migrateToLatest(handle.db);
    const first = await tables();
    expect(first).toEqual(expect.arrayContaining(['clients', 'companies', 'api_keys', 'countries', 'currencies', 'products']));
    await migrateDownAll(handle.db);
    expect(await tables()).toEqual([]);
    await migrateToLatest(handle.db);
    expect(await tables()).toEqual(first);
  });

  it('seed the reference data, with GHS as the one default currency', async () => {
    const ghana = await handle.db.selectFrom('countries').selectAll().where('code', '=', 'GH').executeTakeFirstOrThrow();
    expect(ghana).toMatchObject({ name: 'Ghana', phone: '+233', currency: 'GHS' });
    const defaults = await handle.db.selectFrom('currencies').select('code').where('is_default', '=', true).execute();
    expect(defaults).toEqual([{ code: 'GHS' }]);
    expect(Number((await handle.db.selectFrom('vehicle_makes').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBeGreaterThan(20);
  });

  it('seed the sandbox idempotently: a product per policy type, insurers of every kind', async () => {
    const key = `sk_test_${randomBytes(8).toString('hex')}`;
    const first = await seedSandbox(handle.db, key);
    const second = await seedSandbox(handle.db, key);
    expect(second.tenantId).toBe(first.tenantId);
    const keys = await handle.db.selectFrom('api_keys').select('key_hash').where('tenant_id', '=', first.tenantId).execute();
    expect(keys).toHaveLength(1);
    expect(keys[0].key_hash).not.toContain(key); // stored hashed
    const online = await handle.db.selectFrom('products').select('category')
      .where('distribution', '=', 'ONLINE').where('status', '=', 'ACTIVE').execute();
    expect(new Set(online.map((p) => p.category)).size).toBe(39);
    expect(online).toHaveLength(39);
    const offline = await handle.db.selectFrom('products').select('id').where('distribution', '=', 'OFFLINE').execute();
    expect(offline.length).toBeGreaterThan(0);
    const kinds = await handle.db.selectFrom('companies').select('kind').where('type', 'in', ['INSURER', 'MICRO_INSURER']).execute();
    expect(new Set(kinds.map((k) => k.kind))).toEqual(new Set(['NON_LIFE', 'LIFE', 'HEALTH', 'PENSION']));
  });

  it('give INT8, NUMERIC and DATE back as strings on both drivers', async () => {
    const { sql } = await import('kysely');
    const { rows } = await sql<{ big: unknown; money: unknown; day: unknown }>`select 9007199254740993::int8 as big, 12.30::numeric(18,2) as money, date '2026-01-31' as day`.execute(handle.db);
    expect(rows[0]).toEqual({ big: '9007199254740993', money: '12.30', day: '2026-01-31' });
  });
});
