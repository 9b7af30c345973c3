import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CompanyFields, CompanyServices } from '../server/domain/companies/rules.js';
import { systemClock } from '../server/platform/clock.js';
import { loadConfig } from '../server/platform/config.js';
import { openDatabase } from '../server/platform/db/database.js';
import { migrateToLatest } from '../server/platform/db/migrate.js';
import { ApiError } from '../server/platform/errors.js';
import type { Part } from '../server/platform/files.js';
import { outboxNotifier } from '../server/platform/notifier.js';
import { createStorage } from '../server/platform/storage/index.js';
import { domainReactions } from '../server/domain/reactions.js';
import { domainSnapshots } from '../server/domain/snapshots.js';

/**
 * What `npm run company:create` and `company:update` share: the command-line options of a
 * company's fields (the contract's names in kebab case), the database as the server opens it
 * (DATABASE_URL, else the embedded one in DATA_DIR; migrated, not seeded), and how an error ends
 * the command. The rules and bounds are the API's own: the domain functions of
 * `server/domain/companies/`, after the body is checked against the contract's schema.
 */

export const FIELD_OPTIONS = {
  name: { type: 'string' }, identifier: { type: 'string' }, email: { type: 'string' }, type: { type: 'string' }, kind: { type: 'string' },
  'short-name': { type: 'string' }, description: { type: 'string' }, 'primary-color': { type: 'string' }, 'sms-sender-id': { type: 'string' },
  subdomain: { type: 'string' }, 'db-name': { type: 'string' }, 'database-uri': { type: 'string' }, address: { type: 'string' },
  country: { type: 'string' }, 'firebase-project-id': { type: 'string' }, 'firebase-client-email': { type: 'string' },
  'firebase-database-url': { type: 'string' }, 'firebase-private-key-file': { type: 'string' }, logo: { type: 'string' },
  json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

export const FIELD_HELP = `Company fields (the bounds are the API's):
  --name <text>                 at least 3 characters
  --identifier <text>           at least 3 characters, unique on the platform
  --email <email>
  --type <type>                 INSURER, BROKER, MICRO_INSURER, DIGITAL_AGENT or AGENT
  --kind <kind>                 NON_LIFE, LIFE, HEALTH or PENSION
  --short-name <text>
  --description <text>
  --primary-color <#RRGGBB>
  --sms-sender-id <text>        at most 11 characters
  --subdomain <label>           at least 3 characters, unique (default: from the identifier)
  --db-name <name>              at least 3 characters, unique
  --database-uri <uri>          stored, never shown
  --address <text>
  --country <XX>                ISO 3166-1 alpha-2
  --firebase-project-id <id>    the Firebase project clients log in with (firebaseConfig.projectId)
  --firebase-client-email <e>   --firebase-database-url <url>   --firebase-private-key-file <path>
  --logo <path>                 a JPEG, PNG or WebP of at most 1 MiB
  --json                        print the answer as JSON only
Database: DATABASE_URL (PostgreSQL), else the embedded database in DATA_DIR (./data). Use the
server's DATA_DIR or JWT_SECRET: password-set codes are bound to it.`;

type Values = Partial<Record<keyof typeof FIELD_OPTIONS, string | boolean | undefined>>;

/** The options given -> the contract's company fields (only those given). */
export function fieldsOf(values: Values): CompanyFields {
  const text = (name: keyof typeof FIELD_OPTIONS) => values[name] as string | undefined;
  const fields: Record<string, unknown> = {
    name: text('name'), identifier: text('identifier'), email: text('email'), type: text('type'), kind: text('kind'),
    shortName: text('short-name'), description: text('description'), primaryColor: text('primary-color'),
    smsSenderId: text('sms-sender-id'), subdomain: text('subdomain'), dbName: text('db-name'), databaseUri: text('database-uri'),
    address: text('address'), country: text('country'),
  };
  const firebase = {
    projectId: text('firebase-project-id'), clientEmail: text('firebase-client-email'), databaseUrl: text('firebase-database-url'),
    privateKey: text('firebase-private-key-file') ? readFileSync(text('firebase-private-key-file')!, 'utf8') : undefined,
  };
  if (Object.values(firebase).some((value) => value !== undefined)) fields.firebaseConfig = firebase;
  return JSON.parse(JSON.stringify(fields)) as CompanyFields; // drops the options not given
}

/** A logo file as the one multipart part the logo upload takes. */
export async function* logoPart(file: string): AsyncIterable<Part> {
  yield { kind: 'file', field: 'logo', filename: path.basename(file), mimetype: 'application/octet-stream', stream: createReadStream(file) };
}

export function parse<O extends ParseArgsConfig['options']>(options: O) {
  try {
    return parseArgs({ options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exit(2);
  }
}

/** Opens the database the server uses, brings it to the latest migration, and runs `work` with the services. */
export async function withServices<T>(work: (services: CompanyServices) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(database.db);
    return await work({
      config, db: database.db, clock: systemClock, notifier: outboxNotifier(systemClock), storage: createStorage(config),
      reactions: domainReactions, eventSnapshots: domainSnapshots,
    });
  } finally {
    await database.close();
  }
}

/** Runs a command: an API error (a bound, a taken identifier) is printed with its code and exits 1. */
export async function run(main: () => Promise<void>) {
  try {
    await main();
  } catch (error) {
    if (error instanceof ApiError) {
      console.error(`error: ${error.message} (${error.statusCode} ${error.code})`);
      process.exit(1);
    }
    throw error;
  }
}
