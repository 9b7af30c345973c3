import type { components } from '../../generated/api.js';
import type { StaffPosition, StaffType } from './db/schema.js';
import type { CredentialCache } from './auth/credential-cache.js';
import type { PaymentProvider } from './payments/provider.js';
import type { Config } from './config.js';
import type { Clock } from './clock.js';
import type { EventReactions, EventSnapshots } from './events.js';
import type { Db } from './db/database.js';
import type { Notifier } from './notifier.js';
import type { MessageTransports } from './messages/transport.js';
import type { FileStorage } from './storage/storage.js';
import type { Metrics } from './observability/metrics.js';
import type { TenantScope } from './tenancy.js';
import type { Lifecycle } from './lifecycle.js';
import type { Tracing } from './observability/tracing.js';

/** The company whose application called, resolved from the `Api-Key` header. */
export interface Tenant {
  id: string;
  name: string;
  subdomain: string;
  firebaseProjectId: string | null;
  apiKeyMode: 'sandbox' | 'production';
}

/** Whose rows a staff member reaches through the operation called (the permission table's scope). */
export type Reach = components['schemas']['PermissionScope'];

/** A signed-in staff member, with where they sit and what the operation called lets them reach. */
export interface StaffActor {
  kind: 'staff';
  staffId: string;
  /** The company the staff member works for (the call's tenant): every reach condition names it. */
  tenantId: string;
  tokenId: string;
  tokenExpiresAt: Date;
  /** The session (refresh token family) the token was issued for, if any: logout ends it. */
  sessionId?: string;
  type: StaffType;
  position: StaffPosition;
  departmentId: string | null;
  branchId: string | null;
  reach: Reach;
  /** On calls that price a policy, how far (percent) the caller may set the premium off the rated one; else 0. */
  premiumLatitude: number;
}

/** Who is calling within the tenant. */
export type Actor =
  | { kind: 'anonymous' }
  | { kind: 'client'; clientId: string; tokenId: string; tokenExpiresAt: Date; sessionId?: string }
  | StaffActor;

/** Services shared by every request (created once per app). */
export interface Services {
  config: Config;
  db: Db;
  clock: Clock;
  notifier: Notifier;
  /** How outbox messages leave: SMTP and an SMS provider, or the sandbox's (server/platform/messages/). */
  messages: MessageTransports;
  /** Where uploaded documents' bytes live (local disk or S3); created once from the config. */
  storage?: FileStorage;
  /** Card checkouts and mobile money prompts (the sandbox provider unless configured otherwise). */
  payments: PaymentProvider;
  /**
   * Posts a webhook to this API's own `POST /webhooks/payments/{provider}`, over the same route a
   * provider reaches (signature checked on the raw bytes): how the sandbox provider reports.
   */
  deliverWebhook(provider: string, delivery: { headers: Record<string, string>; body: string }): Promise<{ statusCode: number; body: string }>;
  /**
   * The contract as readers get it (`GET /openapi.json`): the bundle with its examples' dates moved
   * from their anchor day to the day the app started (`documentForReaders`), made on the first call.
   */
  servedContract(): Record<string, unknown>;
  /**
   * What authenticating a request reads (Api-Key, revocation, sessions), kept between requests;
   * code that ends a credential calls `forget` with its tag once committed.
   */
  credentials: CredentialCache;
  /** Whether the instance is shutting down (readiness and the shutdown gate read it). */
  lifecycle: Lifecycle;
  /** What follows each business event, in the transaction that recorded it (the domain's reactions, server/domain/reactions.ts). */
  reactions: EventReactions;
  /** Each public event's object as the API answers it, read in the event's transaction (the domain's views, server/domain/snapshots.ts). */
  eventSnapshots: EventSnapshots;
  /** The Prometheus metrics (`GET /metrics`), when METRICS_TOKEN is set; undefined, nothing is counted. */
  metrics?: Metrics;
  /** Traces, when on: background jobs run in spans of their own. */
  tracing?: Tracing;
  /** Signs an access token for a client of a tenant, of the session (refresh token family) `sessionId` if given. */
  signAccessToken(claims: { tenantId: string; clientId: string; sessionVersion: number; sessionId?: string }): Promise<{ token: string; expiresAt: Date }>;
  /** Signs an access token for a staff member of a tenant (`kind: staff`: it passes staff calls only), of the session `sessionId` if given. */
  signStaffAccessToken(claims: { tenantId: string; staffId: string; sessionVersion: number; sessionId?: string }): Promise<{ token: string; expiresAt: Date }>;
}

/** What a handler receives besides the request: everything with side effects is injected. */
export interface HandlerContext extends Services {
  tenant: Tenant;
  actor: Actor;
  /** Tenant-scoped access to tenant-owned tables. */
  scope: TenantScope;
}
