import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { compiledQuery } from '../../server/platform/db/compiled-query.js';
import { openDatabase, type DatabaseHandle } from '../../server/platform/db/database.js';

/**
 * A query built once and run with each call's values: the builder runs once, each call reads its
 * own rows, the constants the builder wrote stay, and a parameter the query does not use is refused.
 * On PostgreSQL when DATABASE_URL is set (in a schema of its own), else on the embedded database.
 */
const url = process.env.DATABASE_URL;
const schema = `c_${randomBytes(6).toString('hex')}`;
let handle: DatabaseHandle;
type Db = Kysely<any>;

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try { await client.query(statement); } finally { await client.end(); }
}

beforeAll(async () => {
  if (url) await admin(`create schema ${schema}`);
  handle = await openDatabase({ databaseUrl: url, dataDir: 'memory://', ...(url ? { schema } : {}) });
  await sql`create table items (id int primary key, owner text not null, status text not null, name text not null)`.execute(handle.db);
  await sql`insert into items values (1, 'a', 'OPEN', 'one'), (2, 'a', 'CLOSED', 'two'), (3, 'b', 'OPEN', 'three'), (4, 'a', 'OPEN', 'four')`.execute(handle.db);
});
afterAll(async () => {
  await handle.close();
  if (url) await admin(`drop schema ${schema} cascade`);
});

describe('compiledQuery', () => {
  it('builds once, then reads each call\'s own rows, keeping the constants it was built with', async () => {
    let builds = 0;
    const openOfOwner = compiledQuery((db: Db, params: { owner: string; from: number }) => {
      builds += 1;
      return db.selectFrom('items').select(['id', 'name'])
        .where('owner', '=', params.owner).where('status', 'in', ['OPEN', 'PENDING'])
        .where(sql<boolean>`id >= ${params.from}`).orderBy('id').limit(5);
    });
    expect(await openOfOwner(handle.db, { owner: 'a', from: 1 })).toEqual([{ id: 1, name: 'one' }, { id: 4, name: 'four' }]);
    expect(await openOfOwner(handle.db, { owner: 'b', from: 1 })).toEqual([{ id: 3, name: 'three' }]);
    expect(await openOfOwner(handle.db, { owner: 'a', from: 2 })).toEqual([{ id: 4, name: 'four' }]);
    expect(builds).toBe(1);
  });

  it('runs inside a transaction through the transaction\'s connection', async () => {
    const named = compiledQuery((db: Db, params: { id: number }) => db.selectFrom('items').select('name').where('id', '=', params.id));
    const seen = await handle.db.transaction().execute(async (trx) => {
      await sql`update items set name = 'renamed' where id = 2`.execute(trx);
      return named(trx, { id: 2 });
    });
    expect(seen).toEqual([{ name: 'renamed' }]);
  });

  it('refuses a parameter the query does not take among its values', async () => {
    const careless = compiledQuery((db: Db, params: { id: number; unused: string }) => {
      void params.unused;
      return db.selectFrom('items').select('name').where('id', '=', params.id);
    });
    await expect(careless(handle.db, { id: 1, unused: 'x' })).rejects.toThrow('the parameter unused is not among the query\'s values');
  });
});
