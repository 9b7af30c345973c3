import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../server/platform/db/database.js';

/**
 * On PostgreSQL each connection keeps the statements it is sent parsed and planned (named
 * statements): the second request of a kind skips parsing and planning. A statement whose table
 * changed shape under it fails once (0A000) and works again from the next call. The embedded
 * database has one session and no planning to share: nothing to check there.
 */
const url = process.env.DATABASE_URL;
const onPostgres = url ? describe : describe.skip;
const schema = `p_${randomBytes(6).toString('hex')}`;
let handle: DatabaseHandle;

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try { await client.query(statement); } finally { await client.end(); }
}

onPostgres('prepared statements (PostgreSQL)', () => {
  beforeAll(async () => {
    await admin(`create schema ${schema}`);
    // One connection, so the statements checked are the ones this test sent.
    handle = await openDatabase({ databaseUrl: url, dataDir: 'memory://', schema, poolSize: 1 });
    await sql`create table items (id int primary key, name text not null)`.execute(handle.db);
    await sql`insert into items values (1, 'one'), (2, 'two')`.execute(handle.db);
  });
  afterAll(async () => {
    await handle.close();
    await admin(`drop schema ${schema} cascade`);
  });

  it('keeps a statement prepared on its connection and reuses it with other values', async () => {
    const byId = (id: number) => handle.db.selectFrom('items' as never).selectAll().where('id' as never, '=', id as never).execute();
    expect(await byId(1)).toEqual([{ id: 1, name: 'one' }]);
    expect(await byId(2)).toEqual([{ id: 2, name: 'two' }]);
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'cl\\_%'`.execute(handle.db);
    expect(rows.filter((row) => row.statement.includes('from "items" where "id" = $1'))).toHaveLength(1);
  });

  it('a statement whose table changed shape fails once, then is prepared afresh', async () => {
    const all = () => handle.db.selectFrom('items' as never).selectAll().orderBy('id' as never).execute();
    await all();
    await sql`alter table items add column note text`.execute(handle.db);
    await expect(all()).rejects.toMatchObject({ code: '0A000' });
    expect(await all()).toEqual([{ id: 1, name: 'one', note: null }, { id: 2, name: 'two', note: null }]);
  });
});
