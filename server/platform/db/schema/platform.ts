import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, Optional, Timestamp } from './columns.js';

/** The platform's own tables: the outbox, business events, rate limits, numbering, idempotency keys, jobs. */

export type MessageStatus = 'QUEUED' | 'RETRYING' | 'SENT' | 'FAILED';

/** Who a message is from: the company's name and reply-to address, its SMS sender id and country. */
export interface MessageSender { name: string; replyTo?: string; smsSenderId?: string; /** ISO country local numbers are read in. */ country?: string }

/** One e-mail or SMS, written with the change that caused it, and its delivery state (server/platform/messages/). */
export interface OutboxTable {
  id: Generated<string>;
  tenant_id: string;
  channel: 'email' | 'sms';
  recipient: string;
  template: string;
  /** A one-time code (masked when shown to its owner) or a notice (carries List-Unsubscribe). */
  purpose: Generated<'code' | 'notice'>;
  subject: string | null;
  /** The plain-text e-mail body, or the SMS text. */
  body: string;
  html: string | null;
  /** The one-time code inside the message, masked wherever the message is shown back. */
  secret: string | null;
  sender: ColumnType<MessageSender, string | undefined, string>;
  client_id: string | null;
  staff_id: string | null;
  status: Generated<MessageStatus>;
  attempts: Generated<number>;
  /** Which transport took it (smtp, africastalking, sandbox...) and its id for the message. */
  provider: string | null;
  provider_message_id: string | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: CreatedAt;
  sent_at: Date | null;
  failed_at: Date | null;
  updated_at: Generated<Date>;
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
  /** The contract's version the payload is in (migration 030); null for an internal event. */
  api_version: Optional<string>;
  /** The event's object as the API answered it then (migration 030); null for an internal event. */
  payload: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
}

/** Where a company's events are delivered (migration 030). */
export interface WebhookEndpointsTable {
  id: Generated<string>;
  tenant_id: string;
  url: string;
  description: string | null;
  /** The event types delivered; null: every type. */
  event_types: string[] | null;
  enabled: Generated<boolean>;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  disabled_reason: string | null;
  created_by_staff_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** One event for one endpoint: made with the event, attempted until it succeeds or the schedule ends. */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  tenant_id: string;
  endpoint_id: string;
  event_id: string;
  status: Generated<'PENDING' | 'SUCCEEDED' | 'FAILED'>;
  attempts: Generated<number>;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** One try of a delivery: what the endpoint answered, or why it could not. */
export interface WebhookAttemptsTable {
  id: Generated<string>;
  tenant_id: string;
  delivery_id: string;
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string | null;
  error: string | null;
  created_at: Date;
}

/**
 * One row a staff member's or the operator's call created, changed or deleted, written by the
 * audited tables' trigger (migration 029) in the call's transaction; append-only.
 */
export interface AuditEventsTable {
  id: Generated<string>;
  tenant_id: string;
  actor_kind: 'staff' | 'operator';
  actor_id: string | null;
  actor_position: string | null;
  /** The operationId of the call. */
  action: string;
  entity_type: string;
  entity_id: string;
  change: 'created' | 'updated' | 'deleted';
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  request_id: string;
  address: string | null;
  created_at: Date;
  /** The transaction that wrote it (`txid_current()`): only it may still fold a later write of the row in. */
  transaction_id: Generated<string>;
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

/** One Idempotency-Key of a caller (a client or a staff member) on an operation, with its first answer (server/platform/idempotency.ts). */
export interface IdempotencyKeysTable {
  tenant_id: string;
  actor_kind: 'client' | 'staff';
  actor_id: string;
  operation: string;
  key: string;
  request_hash: string;
  response_status: number | null;
  /** The first answer's body, the JSON text exactly as it was sent. */
  response_body: string | null;
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
