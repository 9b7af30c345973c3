import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Every change that can end a credential announces itself on the `coverline_credentials` channel
// at commit (NOTIFY), whoever makes it (the API, a script, an operator in psql): each API instance
// keeps what authenticating a request reads (server/platform/auth/credential-cache.ts) and drops
// exactly what a notice names. A notice's payload is a tag: `api-key:<hash>`, `tenant:<id>`,
// `token:<jti>`, `client:<id>`, `staff:<id>` or `staff-tenant:<tenant id>` (a department moved to
// another branch changes the reach of its staff).
const up = [
  `create function coverline_credential_notice() returns trigger language plpgsql as $$
   declare
     changed record;
     tag text;
   begin
     if tg_op = 'DELETE' then changed := old; else changed := new; end if;
     -- One branch per table: a record's fields are resolved when read, so each reads its own.
     if tg_table_name = 'api_keys' then tag := 'api-key:' || changed.key_hash;
     elsif tg_table_name = 'companies' then tag := 'tenant:' || changed.id;
     elsif tg_table_name = 'revoked_tokens' then tag := 'token:' || changed.jti;
     elsif tg_table_name = 'clients' then tag := 'client:' || changed.id;
     elsif tg_table_name = 'staff' then tag := 'staff:' || changed.id;
     elsif tg_table_name = 'departments' then tag := 'staff-tenant:' || changed.tenant_id;
     end if;
     perform pg_notify('coverline_credentials', tag);
     return null;
   end $$`,
  `create trigger api_keys_credential_notice after update or delete on api_keys
     for each row execute function coverline_credential_notice()`,
  `create trigger companies_credential_notice after update or delete on companies
     for each row execute function coverline_credential_notice()`,
  `create trigger revoked_tokens_credential_notice after insert on revoked_tokens
     for each row execute function coverline_credential_notice()`,
  `create trigger clients_credential_notice after update of session_version, is_active, deleted_at or delete on clients
     for each row execute function coverline_credential_notice()`,
  `create trigger staff_credential_notice after update of session_version, is_active, type, position, department_id or delete on staff
     for each row execute function coverline_credential_notice()`,
  `create trigger departments_credential_notice after update of branch_id or delete on departments
     for each row execute function coverline_credential_notice()`,
];

const down = [
  ...['departments', 'staff', 'clients', 'revoked_tokens', 'companies', 'api_keys'].map((t) => `drop trigger ${t}_credential_notice on ${t}`),
  `drop function coverline_credential_notice()`,
];

export const credentialNotices = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
