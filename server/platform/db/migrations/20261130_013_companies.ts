import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Companies made by the platform operator: every field of the seed's Company with its bounds as
// constraints (001 and 012 hold name, identifier, subdomain and dbName >= 3, smsSenderId <= 11,
// the types and kinds), dbName unique like identifier and subdomain, a Firebase config that names
// its project, and the company's logo (its bytes in document storage, its type and size here).
const up = [
  `create unique index companies_db_name_key on companies (db_name) where db_name is not null`,
  `alter table companies
    add constraint companies_short_name_check check (char_length(short_name) >= 1),
    add constraint companies_email_check check (position('@' in email) > 1),
    add constraint companies_firebase_config_check check (firebase_config is null or (jsonb_typeof(firebase_config) = 'object' and firebase_config ? 'projectId')),
    add column logo_storage_key text,
    add column logo_content_type text check (logo_content_type in ('image/jpeg','image/png','image/webp')),
    add column logo_size integer check (logo_size > 0),
    add constraint companies_logo_check check ((logo_storage_key is null) = (logo_content_type is null))`,
];

const down = [
  `alter table companies
    drop constraint companies_logo_check,
    drop column logo_size,
    drop column logo_content_type,
    drop column logo_storage_key,
    drop constraint companies_firebase_config_check,
    drop constraint companies_email_check,
    drop constraint companies_short_name_check`,
  `drop index companies_db_name_key`,
];

export const companies = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
