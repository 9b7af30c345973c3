import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Messages that leave (server/platform/messages/): each outbox row keeps what was sent (subject,
// plain text or SMS text, HTML), who sent it (the company's name, reply-to and SMS sender id),
// whose it is (the client or staff member it was for), and its delivery state: QUEUED, RETRYING
// after a temporary failure, SENT with the provider's message id, or FAILED with the reason. Each
// row is delivered by one job of the `messages.deliver` queue (claimed once across instances,
// retried with the queue's backoff); rows queued before this migration get theirs here.
const up = [
  `alter table outbox drop constraint outbox_status_check`,
  `update outbox set status = 'QUEUED' where status = 'PENDING'`,
  `alter table outbox alter column status set default 'QUEUED'`,
  `alter table outbox add constraint outbox_status_check check (status in ('QUEUED', 'RETRYING', 'SENT', 'FAILED'))`,
  `alter table outbox add column purpose text not null default 'notice' check (purpose in ('code', 'notice'))`,
  `alter table outbox add column html text`,
  `alter table outbox add column secret text`,
  `alter table outbox add column sender jsonb not null default '{}'::jsonb`,
  `alter table outbox add column client_id uuid references clients(id)`,
  `alter table outbox add column staff_id uuid references staff(id)`,
  `alter table outbox add column provider text`,
  `alter table outbox add column provider_message_id text`,
  `alter table outbox add column last_error text`,
  `alter table outbox add column next_attempt_at timestamptz`,
  `alter table outbox add column failed_at timestamptz`,
  `alter table outbox add column updated_at timestamptz not null default now()`,
  `drop index outbox_pending_idx`,
  `create index outbox_recipient_idx on outbox (tenant_id, recipient, created_at desc, id)`,
  `create index outbox_client_idx on outbox (tenant_id, client_id, created_at desc, id) where client_id is not null`,
  `create index outbox_staff_idx on outbox (tenant_id, staff_id, created_at desc, id) where staff_id is not null`,
  `insert into jobs (queue, payload, run_at, dedupe_key, max_attempts)
     select 'messages.deliver', jsonb_build_object('messageId', id), now(), 'message:' || id, 8 from outbox where status = 'QUEUED'
     on conflict (dedupe_key) do nothing`,
];

const down = [
  `delete from jobs where queue = 'messages.deliver'`,
  `drop index outbox_staff_idx`,
  `drop index outbox_client_idx`,
  `drop index outbox_recipient_idx`,
  `create index outbox_pending_idx on outbox (status, created_at)`,
  ...['updated_at', 'failed_at', 'next_attempt_at', 'last_error', 'provider_message_id', 'provider', 'staff_id', 'client_id', 'sender', 'secret', 'html', 'purpose']
    .map((column) => `alter table outbox drop column ${column}`),
  `alter table outbox drop constraint outbox_status_check`,
  `update outbox set status = 'PENDING' where status in ('QUEUED', 'RETRYING')`,
  `alter table outbox alter column status set default 'PENDING'`,
  `alter table outbox add constraint outbox_status_check check (status in ('PENDING', 'SENT', 'FAILED'))`,
];

export const messageDelivery = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};
