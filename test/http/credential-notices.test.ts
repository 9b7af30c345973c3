import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../server/app/app.js';
import { hashApiKey } from '../../server/platform/auth/api-keys.js';
import { openDatabase, type DatabaseHandle } from '../../server/platform/db/database.js';
import { ensureApiKey } from '../../server/platform/db/seed.js';
import { signUp } from '../helpers/clients.js';
import { createHarness, credentialNoticesArrived, type Harness } from '../helpers/harness.js';
import { staffSession } from '../helpers/staff.js';

/**
 * What authenticating a request reads (Api-Key, revocation, session) is kept by each instance
 * between requests, and dropped when the database announces a change (migration 022's triggers,
 * NOTIFY at commit): whoever changes a credential, the API, a script or psql, every instance
 * refuses it from the moment the notice arrives. On PostgreSQL the notice travels on its own
 * connection, a few milliseconds after the commit: the checks on another instance wait for it
 * (a notice of the test's own, sent after the change, has come back); on the instance that made
 * the change through the API it holds at once.
 */

let h: Harness;
let second: FastifyInstance;
let secondDb: DatabaseHandle | undefined;

beforeAll(async () => {
  h = await createHarness();
  // A second instance, as a second process would be: on PostgreSQL its own pool and its own listener.
  secondDb = h.databaseUrl ? await openDatabase({ databaseUrl: h.databaseUrl, dataDir: 'memory://', poolSize: 5 }) : undefined;
  second = await buildApp({ config: h.config, db: secondDb?.db ?? h.db, changes: secondDb?.changes ?? h.changes, clock: h.clock });
  await second.ready();
}, 600_000);
afterAll(async () => {
  await second.close();
  await secondDb?.close();
  await h.close();
});

const accountOn = (app: FastifyInstance, token: string, apiKey = h.apiKey) =>
  app.inject({ method: 'GET', url: '/api/v1/client/account', headers: { 'api-key': apiKey, authorization: `Bearer ${token}` } });

/** What `check` answers once `app` has received the notices committed so far (a signal, not a sleep). */
async function statusOnceNoticed(app: FastifyInstance, check: () => Promise<{ statusCode: number }>): Promise<number> {
  await credentialNoticesArrived(app, h.db);
  return (await check()).statusCode;
}

const jtiOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti as string;

describe('credentials kept between requests', () => {
  it('are served from memory: a change made with the notices switched off goes unseen until a notice names it', async () => {
    const key = `sk_test_${randomBytes(12).toString('hex')}`;
    await ensureApiKey(h.db, h.tenantId, key);
    const { token } = await signUp(h, undefined, key);
    expect((await accountOn(h.app, token, key)).statusCode).toBe(200);

    // Revoked with the triggers off (replica mode): nothing is announced, so the kept tenant still serves.
    await h.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await trx.updateTable('api_keys').set({ revoked_at: new Date() }).where('key_hash', '=', hashApiKey(key)).execute();
    });
    expect((await accountOn(h.app, token, key)).statusCode).toBe(200);

    // The notice the trigger would have sent drops it: the next request reads the revoked key.
    await sql`select pg_notify('coverline_credentials', ${`api-key:${hashApiKey(key)}`})`.execute(h.db);
    expect(await statusOnceNoticed(h.app, () => accountOn(h.app, token, key))).toBe(401);
  });

  it('a token revoked by a write outside the API is refused by every instance', async () => {
    const { token } = await signUp(h);
    expect((await accountOn(h.app, token)).statusCode).toBe(200);
    expect((await accountOn(second, token)).statusCode).toBe(200);
    await h.db.insertInto('revoked_tokens').values({ jti: jtiOf(token), tenant_id: h.tenantId, expires_at: new Date(Date.now() + 3_600_000) }).execute();
    expect(await statusOnceNoticed(h.app, () => accountOn(h.app, token))).toBe(401);
    expect(await statusOnceNoticed(second, () => accountOn(second, token))).toBe(401);
  });

  it('a client deactivated in the database is refused by every instance', async () => {
    const { token, account } = await signUp(h);
    expect((await accountOn(second, token)).statusCode).toBe(200);
    await h.db.updateTable('clients').set({ is_active: false }).where('id', '=', account.id).execute();
    expect(await statusOnceNoticed(h.app, () => accountOn(h.app, token))).toBe(401);
    expect(await statusOnceNoticed(second, () => accountOn(second, token))).toBe(401);
  });

  it('logging out on one instance: that instance refuses the token at once, the other as the notice arrives', async () => {
    const { token } = await signUp(h);
    expect((await accountOn(second, token)).statusCode).toBe(200);
    expect((await accountOn(h.app, token)).statusCode).toBe(200);
    const out = await h.call({ method: 'POST', url: '/api/v1/auth/logout', token });
    expect(out.statusCode).toBe(200);
    expect((await accountOn(h.app, token)).statusCode).toBe(401);
    expect(await statusOnceNoticed(second, () => accountOn(second, token))).toBe(401);
  });

  it('a staff member demoted in the database loses what the old position allowed, on every instance', async () => {
    const manager = await staffSession(h, 'exec');
    // Opening a branch is for executive managers: with an empty body, one is told what the body lacks (400), anyone else 403.
    const openBranch = (app: FastifyInstance) => app.inject({
      method: 'POST', url: '/api/v1/staff/branches', headers: { 'api-key': h.apiKey, authorization: `Bearer ${manager.token}` }, payload: {},
    });
    expect((await openBranch(h.app)).statusCode).toBe(400);
    expect((await openBranch(second)).statusCode).toBe(400);
    const { department_id: departmentId } = await h.db.selectFrom('staff').select('department_id').where('department_id', 'is not', null).limit(1).executeTakeFirstOrThrow();
    await h.db.updateTable('staff').set({ position: 'LEVEL_OFFICER', department_id: departmentId }).where('id', '=', manager.id).execute();
    expect(await statusOnceNoticed(h.app, () => openBranch(h.app))).toBe(403);
    expect(await statusOnceNoticed(second, () => openBranch(second))).toBe(403);
  });
});
