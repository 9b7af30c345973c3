import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, Timestamp } from './columns.js';

/** The platform's own tables: the outbox, business events, rate limits, numbering, idempotency keys, jobs. */

export interface OutboxTable {
  id: Generated<string>;
  tenant_id: string;
  channel: 'email' | 'sms';
  recipient: string;
  template: string;
  subject: string | null;
  body: string;
  status: Generated<'PENDING' | 'SENT' | 'FAILED'>;
  attempts: Generated<number>;
  created_at: CreatedAt;
  sent_at: Date | null;
}

/** A business change other parts of the domain react to (server/domain/events/), recorded with it. */
export interface DomainEventsTable {
  id: Generated<string>;
  tenant_id: string;
  type: string;
  actor_kind: 'client' | 'staff' | 'system' | 'provider';
  actor_id: string | null;
  object_type: string;
  object_id: string;
  data: Json<Record<string, unknown>>;
  previous: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  created_at: Date;
}

export interface RateLimitBucketsTable {
  bucket: string;
  window_started_at: Date;
  hits: number;
}

export interface TenantSequencesTable {
  tenant_id: string;
  name: string;
  last_value: ColumnType<string, string | number, string | number>;
}

export interface IdempotencyKeysTable {
  tenant_id: string;
  client_id: string;
  operation: string;
  key: string;
  request_hash: string;
  response_status: number | null;
  response_body: Json<unknown> | null;
  created_at: CreatedAt;
  expires_at: Date;
}

/** The job queue (server/platform/jobs/queue.ts): not a tenant table; a job's payload names its tenant when it has one. */
export interface JobsTable {
  id: Generated<string>;
  queue: string;
  payload: ColumnType<Record<string, unknown>, string | undefined, string>;
  dedupe_key: string | null;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  locked_by: string | null;
  locked_until: Date | null;
  last_error: string | null;
  done_at: Date | null;
  failed_at: Date | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}
