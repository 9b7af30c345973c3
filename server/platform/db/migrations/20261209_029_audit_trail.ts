import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// The audit trail (issue 27). `audit_events`: one row per row a staff member's or the operator's
// call created, changed or deleted in the tables below, written by a trigger in the same
// transaction as the change, so no decision goes unrecorded and none is recorded that rolled back.
// Who made the call, its operation, request id and address come from the transaction's
// `coverline.audit` setting (server/platform/audit.ts sets it on every write of such a call); a
// transaction without it (a client's call, a job) records nothing. Updates record only the fields
// that changed, before and after; secrets (hashes, the code of an outbox row, connection strings,
// service-account keys) are recorded as changed but never with their values. Append-only: a
// trigger refuses every UPDATE, DELETE and TRUNCATE of `audit_events`, for the API's own role too.

/** The audited tables: the entity each row is in the API's words, its id column and its tenant column. */
const AUDITED: [table: string, entity: string, idColumn: string, tenantColumn: string][] = [
  ['companies', 'Company', 'id', 'id'],
  ['api_keys', 'CompanyApiKey', 'id', 'tenant_id'],
  ['branches', 'Branch', 'id', 'tenant_id'],
  ['departments', 'Department', 'id', 'tenant_id'],
  ['staff', 'StaffMember', 'id', 'tenant_id'],
  ['executive_manager_restorations', 'ExecutiveManagerRestoration', 'id', 'tenant_id'],
  ['settlement_controls', 'SettlementAuthority', 'tenant_id', 'tenant_id'],
  ['password_reset_codes', 'PasswordResetCode', 'id', 'tenant_id'],
  ['verification_codes', 'VerificationCode', 'id', 'tenant_id'],
  ['clients', 'Client', 'id', 'tenant_id'],
  ['documents', 'Document', 'id', 'tenant_id'],
  ['products', 'Product', 'id', 'owner_tenant_id'],
  ['product_assignments', 'ProductAssignment', 'product_id', 'tenant_id'],
  ['policies', 'Policy', 'id', 'tenant_id'],
  ['policy_assets', 'PolicyAsset', 'id', 'tenant_id'],
  ['invoices', 'Invoice', 'id', 'tenant_id'],
  ['transactions', 'Transaction', 'id', 'tenant_id'],
  ['direct_debits', 'DirectDebit', 'id', 'tenant_id'],
  ['policy_closures', 'PolicyClosure', 'id', 'tenant_id'],
  ['claims', 'Claim', 'id', 'tenant_id'],
  ['claim_documents', 'ClaimDocument', 'document_id', 'tenant_id'],
  ['claim_reviews', 'ClaimReview', 'id', 'tenant_id'],
  ['claim_settlements', 'ClaimSettlement', 'id', 'tenant_id'],
];

const up = [
  `create table audit_events (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references companies(id),
    actor_kind text not null check (actor_kind in ('staff', 'operator')),
    actor_id uuid,
    actor_position text,
    action text not null,
    entity_type text not null,
    entity_id uuid not null,
    change text not null check (change in ('created', 'updated', 'deleted')),
    before jsonb,
    after jsonb,
    request_id text not null,
    address text,
    created_at timestamptz not null,
    transaction_id bigint not null default txid_current()
  )`,
  `create index audit_events_order_idx on audit_events (tenant_id, created_at desc, id desc)`,
  `create index audit_events_actor_idx on audit_events (tenant_id, actor_id, created_at desc, id desc)`,
  `create index audit_events_entity_idx on audit_events (tenant_id, entity_id)`,
  `create index audit_events_transaction_idx on audit_events (transaction_id, entity_id)`,
  // A committed event is never changed or deleted; the transaction writing an event may still fold
  // a later write of the same row into it (audit_row_change), which is the same as writing it whole.
  `create function audit_events_append_only() returns trigger language plpgsql as $$
  begin
    if tg_op = 'UPDATE' and old.transaction_id = txid_current() and new.transaction_id = old.transaction_id then return new; end if;
    raise exception 'audit_events is append-only: % refused', tg_op using errcode = '42501';
  end $$`,
  `create trigger audit_events_no_change before update or delete on audit_events
    for each row execute function audit_events_append_only()`,
  `create trigger audit_events_no_truncate before truncate on audit_events
    for each statement execute function audit_events_append_only()`,
  // tg_argv: the entity, its id column, its tenant column. A call that writes one row several
  // times (approving a payment sets its status, then its receipt) leaves one event for the row:
  // for a row it created, the row as it ended; for a row it changed, each changed field's first
  // value before and last value after.
  `create function audit_row_change() returns trigger language plpgsql as $$
  declare
    context jsonb := nullif(current_setting('coverline.audit', true), '')::jsonb;
    old_row jsonb;
    new_row jsonb;
    row_data jsonb;
    before_fields jsonb;
    after_fields jsonb;
    field text;
    tenant uuid;
    entity uuid;
    earlier audit_events%rowtype;
  begin
    if context is null then return null; end if;
    if tg_op <> 'INSERT' then old_row := to_jsonb(old) - 'tenant_id'; end if;
    if tg_op <> 'DELETE' then new_row := to_jsonb(new) - 'tenant_id'; end if;
    row_data := to_jsonb(coalesce(new, old));
    tenant := coalesce((context ->> 'tenantId')::uuid, (row_data ->> tg_argv[2])::uuid);
    if tenant is null then return null; end if;
    entity := (row_data ->> tg_argv[1])::uuid;
    if tg_op = 'UPDATE' then
      before_fields := '{}'::jsonb;
      after_fields := '{}'::jsonb;
      for field in select jsonb_object_keys(new_row) loop
        if field <> 'updated_at' and (old_row -> field) is distinct from (new_row -> field) then
          before_fields := before_fields || jsonb_build_object(field, old_row -> field);
          after_fields := after_fields || jsonb_build_object(field, new_row -> field);
        end if;
      end loop;
      if after_fields = '{}'::jsonb then return null; end if;
    else
      before_fields := old_row;
      after_fields := new_row;
    end if;
    -- Secrets: that they changed is recorded, never what they are.
    for field in select jsonb_object_keys(coalesce(after_fields, before_fields)) loop
      if field like '%\\_hash' or field like '%secret' or field in ('database_uri', 'firebase_config') then
        if before_fields ? field and before_fields -> field <> 'null'::jsonb then before_fields := jsonb_set(before_fields, array[field], '"[redacted]"'); end if;
        if after_fields ? field and after_fields -> field <> 'null'::jsonb then after_fields := jsonb_set(after_fields, array[field], '"[redacted]"'); end if;
      end if;
    end loop;
    if tg_op = 'UPDATE' then
      select * into earlier from audit_events
        where transaction_id = txid_current() and entity_id = entity and entity_type = tg_argv[0]
          and request_id = context ->> 'requestId' and change <> 'deleted'
        order by created_at desc limit 1;
      if found then
        update audit_events set
          before = case when earlier.change = 'created' then null
            else earlier.before || (before_fields - array(select jsonb_object_keys(earlier.before))) end,
          after = earlier.after || after_fields
        where id = earlier.id;
        return null;
      end if;
    end if;
    insert into audit_events (tenant_id, actor_kind, actor_id, actor_position, action, entity_type, entity_id, change,
      before, after, request_id, address, created_at)
    values (tenant, context ->> 'actorKind',
      -- A staff member signed out proves who they are by a code: the row is theirs (or names them).
      coalesce((context ->> 'actorId')::uuid, case when context ->> 'actorIsRow' = 'true'
        then coalesce(row_data ->> 'staff_id', case when tg_table_name = 'staff' then row_data ->> 'id' end)::uuid end),
      context ->> 'actorPosition', context ->> 'action', tg_argv[0], entity,
      case tg_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end,
      before_fields, after_fields, context ->> 'requestId', context ->> 'address', (context ->> 'at')::timestamptz);
    return null;
  end $$`,
  ...AUDITED.map(([table, entity, idColumn, tenantColumn]) =>
    `create trigger ${table}_audit after insert or update or delete on ${table}
      for each row execute function audit_row_change('${entity}', '${idColumn}', '${tenantColumn}')`),
];

const down = [
  ...AUDITED.map(([table]) => `drop trigger ${table}_audit on ${table}`),
  `drop function audit_row_change()`,
  `drop table audit_events`,
  `drop function audit_events_append_only()`,
];

export const auditTrail = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
