import type { Updateable } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { Services } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { violatedUniqueConstraint } from '../../platform/db/errors.js';
import type { CompaniesTable } from '../../platform/db/schema.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';

/**
 * The rules of companies (the tenants) as the platform operator makes and changes them: the
 * contract holds the seed's bounds (name, identifier, subdomain, dbName at least 3 characters,
 * smsSenderId at most 11, the required fields), the database holds them again as constraints, and
 * these functions add what a schema cannot say: uniqueness on the platform, named by field.
 */

type Schemas = components['schemas'];
export type CompanyFields = Schemas['CompanyFields'];
export type CompanyCreate = Schemas['CompanyCreate'];
export type CompanyUpdate = Schemas['CompanyUpdate'];

/** What the operator's company calls need: no tenant, no caller, only the platform's services. */
export type CompanyServices = Pick<Services, 'config' | 'db' | 'clock' | 'notifier' | 'storage' | 'reactions' | 'eventSnapshots'> & Partial<Pick<Services, 'credentials'>>;

/** The unique constraints of `companies` -> the field a caller sent, and the error code. */
const UNIQUE_FIELDS: Record<string, { field: 'identifier' | 'subdomain' | 'dbName'; code: 'IDENTIFIER_TAKEN' | 'SUBDOMAIN_TAKEN' | 'DB_NAME_TAKEN' }> = {
  companies_identifier_key: { field: 'identifier', code: 'IDENTIFIER_TAKEN' },
  companies_subdomain_key: { field: 'subdomain', code: 'SUBDOMAIN_TAKEN' },
  companies_db_name_key: { field: 'dbName', code: 'DB_NAME_TAKEN' },
};

/** A unique violation of `companies` -> 409 naming the field and its value; anything else unchanged. */
export function companyConflict(error: unknown, values: { identifier?: string; subdomain?: string; dbName?: string | null }): unknown {
  const constraint = violatedUniqueConstraint(error);
  const known = constraint !== undefined ? UNIQUE_FIELDS[constraint] : undefined;
  if (!known) return error;
  return conflict(`body.${known.field} ${values[known.field] ?? ''} is taken by another company`.replace('  ', ' '), known.code);
}

/** The subdomain a company gets when none is sent: its identifier in lower case, other characters as hyphens. */
export function defaultSubdomain(identifier: string): string {
  const made = identifier.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63).replace(/-+$/, '');
  if (made.length < 3) throw badRequest('body.subdomain is required when body.identifier does not make one of at least 3 letters or digits');
  return made;
}

/** The columns the fields sent set (create and update alike); fields not sent are left out. */
export function columnsOf(fields: CompanyFields): Updateable<CompaniesTable> {
  const set: Updateable<CompaniesTable> = {};
  if (fields.name !== undefined) set.name = fields.name;
  if (fields.identifier !== undefined) set.identifier = fields.identifier;
  if (fields.email !== undefined) set.email = fields.email;
  if (fields.type !== undefined) set.type = fields.type;
  if (fields.kind !== undefined) set.kind = fields.kind;
  if (fields.shortName !== undefined) set.short_name = fields.shortName;
  if (fields.description !== undefined) set.description = fields.description;
  if (fields.primaryColor !== undefined) set.primary_color = fields.primaryColor;
  if (fields.smsSenderId !== undefined) set.sms_sender_id = fields.smsSenderId;
  if (fields.subdomain !== undefined) set.subdomain = fields.subdomain;
  if (fields.dbName !== undefined) set.db_name = fields.dbName;
  if (fields.databaseUri !== undefined) set.database_uri = fields.databaseUri;
  if (fields.address !== undefined) set.address = fields.address;
  if (fields.country !== undefined) set.country = fields.country;
  if (fields.firebaseConfig !== undefined) {
    // The client Firebase login reads the config's project (`firebase_project_id` is kept in step
    // for what read it before the operator could set a config).
    set.firebase_config = fields.firebaseConfig === null ? null : JSON.stringify(fields.firebaseConfig);
    set.firebase_project_id = fields.firebaseConfig?.projectId ?? null;
  }
  return set;
}

/** The company with this id (locked for an update inside a transaction), or 404. */
export async function companyById(db: Db, id: string, options: { forUpdate?: boolean } = {}) {
  const row = await db.selectFrom('companies').selectAll().where('id', '=', id)
    .$if(Boolean(options.forUpdate), (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row) throw notFound('Company');
  return row;
}
