import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, type Db } from '../../server/platform/db/database.js';
import { migrateToLatest } from '../../server/platform/db/migrate.js';
import { PGliteDialect } from '../../server/platform/db/pglite-dialect.js';
import type { Database } from '../../server/platform/db/schema.js';
import { ensureCompany, seedSandbox } from '../../server/platform/db/seed.js';

/**
 * The database every harness starts from, made once and cloned per harness: migrating a fresh
 * database took a harness about 14 s on a busy machine (PGlite's initdb, then 23 migrations),
 * loading a copy of a migrated one under 2 s. Embedded: a `dumpDataDir()` tarball in the temp
 * folder; PostgreSQL: a template database that `CREATE DATABASE ... TEMPLATE` copies. Both are named
 * by a digest of what makes them (server/platform/db, the dependency versions, this file), so a changed migration makes a new one and an unchanged one is reused across runs.
 * The copy holds the migrated schema, the sandbox seed and the other tenant, and no Api-Key: each
 * harness adds keys of its own. test/platform/migrations.test.ts still migrates from empty.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(import.meta.url);

/** A second tenant with its own key, for the forbidden paths. */
const OTHER_TENANT = {
  name: 'Other Tenant Assurance', identifier: 'OTHER-TENANT', email: 'ops@other-tenant.example', type: 'INSURER',
  kind: 'NON_LIFE', shortName: 'Other', description: 'A second tenant for isolation tests', primaryColor: '#000000',
  smsSenderId: 'OTHER', subdomain: 'othertenant', address: 'Elsewhere', country: 'NG', firebaseProjectId: 'other-project',
} as const;

/** The seed's sandbox company (its row is found again by subdomain in each copy). */
const SANDBOX_COMPANY = (() => {
  const { key: _key, ...company } = (require('../../server/platform/db/data/sandbox-companies.json') as Array<{ key: string } & Parameters<typeof ensureCompany>[1]>)
    .find((c) => c.key === 'sandbox')!;
  return company;
})();

function filesUnder(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

let digestMemo: string | undefined;
/** A digest of everything the template is made from. */
export function templateDigest(): string {
  if (digestMemo) return digestMemo;
  const hash = createHash('sha256');
  // The whole db folder (migrations, the seed, its data, the reference data they load), the
  // dependency versions (PGlite's data format, the country and currency lists), and this file.
  const sources = [
    ...filesUnder(path.join(root, 'server/platform/db')),
    path.join(root, 'package-lock.json'),
    fileURLToPath(import.meta.url),
  ];
  for (const file of sources) hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return (digestMemo = hash.digest('hex').slice(0, 16));
}

/** Migrates and seeds an empty database into the shape every copy starts in. */
async function fill(db: Db) {
  await migrateToLatest(db);
  await seedSandbox(db, `sk_test_${randomBytes(12).toString('hex')}`);
  await ensureCompany(db, OTHER_TENANT);
  // Every copy gets keys of its own.
  await db.deleteFrom('api_keys').execute();
}

/** The ids of the two tenants in a copy (the same in every copy of one template). */
export async function tenantsOf(db: Db) {
  return { tenantId: await ensureCompany(db, SANDBOX_COMPANY), otherTenantId: await ensureCompany(db, OTHER_TENANT) };
}

// --- Embedded (PGlite): a data directory tarball -------------------------------------------------

export const snapshotPath = () => path.join(tmpdir(), 'coverline-test-db', `pglite-${templateDigest()}.tar`);

/** The migrated embedded database's files, made now unless a run made them already. */
export async function ensureSnapshot(): Promise<string> {
  const file = snapshotPath();
  if (existsSync(file)) return file;
  const client = await PGlite.create('memory://');
  const db: Db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  try {
    await fill(db);
    const tarball = new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer());
    mkdirSync(path.dirname(file), { recursive: true });
    // Written aside, then renamed: another process never reads half a file.
    const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, tarball);
    renameSync(partial, file);
  } finally {
    await db.destroy();
  }
  return file;
}

let snapshotMemo: { file: string; blob: Blob } | undefined;
/** The tarball as PGlite loads it (read once per test file). */
export async function snapshotBlob(): Promise<Blob> {
  const file = await ensureSnapshot();
  if (snapshotMemo?.file !== file) snapshotMemo = { file, blob: new Blob([readFileSync(file)]) };
  return snapshotMemo.blob;
}

// --- PostgreSQL: a template database ------------------------------------------------------------

/** `url` with its database name replaced. */
export function databaseUrlFor(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export const templateName = () => `coverline_tpl_${templateDigest()}`;

async function withAdmin<T>(url: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * The template database on the server at `url`, made now unless a run made it already: built
 * under a name of its own, then renamed, so concurrent runs never copy a half-made one. It takes no
 * connections, as `CREATE DATABASE ... TEMPLATE` requires of its source.
 */
export async function ensureTemplate(url: string): Promise<string> {
  const name = templateName();
  const exists = async (admin: pg.Client) => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (await withAdmin(url, exists)) return name;
  const building = `${name}_${randomBytes(4).toString('hex')}`;
  await withAdmin(url, (admin) => admin.query(`create database ${building}`));
  try {
    const handle = await openDatabase({ databaseUrl: databaseUrlFor(url, building), dataDir: 'memory://', poolSize: 1 });
    try {
      await fill(handle.db);
    } finally {
      await handle.close();
    }
    await withAdmin(url, async (admin) => {
      if (await exists(admin)) return;
      await admin.query(`alter database ${building} rename to ${name}`);
      await admin.query(`alter database ${name} with is_template true allow_connections false`);
    });
  } finally {
    await withAdmin(url, (admin) => admin.query(`drop database if exists ${building}`));
  }
  return name;
}

/** A new database on the server at `url`, a copy of the template; answers its URL. */
export async function createDatabaseCopy(url: string): Promise<{ name: string; url: string }> {
  const template = await ensureTemplate(url);
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin(url, (admin) => admin.query(`create database ${name} template ${template}`));
  return { name, url: databaseUrlFor(url, name) };
}

/** Drops a copy made by `createDatabaseCopy`, closing any connection still open to it. */
export async function dropDatabaseCopy(url: string, name: string) {
  await withAdmin(url, (admin) => admin.query(`drop database if exists ${name} with (force)`));
}

/** Jest's globalSetup calls this: the template for the database the run uses, made before any worker starts. */
export async function prepareTemplates() {
  const url = process.env.DATABASE_URL;
  if (url) await ensureTemplate(url);
  else await ensureSnapshot();
}

if (process.argv.includes('--prepare') && process.argv[1] === fileURLToPath(import.meta.url)) await prepareTemplates();
