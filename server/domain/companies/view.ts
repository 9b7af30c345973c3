import type { Selectable } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { CompaniesTable } from '../../platform/db/schema.js';

type Schemas = components['schemas'];
export type OperatorCompany = Schemas['OperatorCompany'];
export type CompanyRow = Selectable<CompaniesTable>;

const iso = (at: Date | string) => new Date(at).toISOString();

/**
 * A company row -> the company as the platform operator sees it. The database URI and the Firebase
 * private key are secrets kept for the operator: only whether they are set is answered.
 */
export function toOperatorCompany(row: CompanyRow): OperatorCompany {
  const firebase = row.firebase_config;
  return {
    id: row.id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    name: row.name,
    identifier: row.identifier,
    email: row.email,
    type: row.type,
    kind: row.kind,
    shortName: row.short_name,
    description: row.description,
    primaryColor: row.primary_color,
    smsSenderId: row.sms_sender_id,
    subdomain: row.subdomain,
    dbName: row.db_name,
    logo: row.logo_url,
    address: row.address,
    country: row.country,
    databaseUriSet: row.database_uri !== null,
    firebaseConfig: firebase
      ? { projectId: firebase.projectId, databaseUrl: firebase.databaseUrl ?? null, clientEmail: firebase.clientEmail ?? null, privateKeySet: Boolean(firebase.privateKey) }
      : null,
  };
}
