import type { components, operations } from '../../../generated/api.js';
import { randomUUID } from 'node:crypto';
import type { HandlerContext } from '../../platform/context.js';
import { ApiError, notFound } from '../../platform/errors.js';
import { newestFirstPage } from '../../platform/export/listing.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { retryDelivery } from '../../platform/webhooks/deliveries.js';
import { AddressRefusedError, checkEndpointUrl, newWebhookSecret, resolvePublicAddress } from '../../platform/webhooks/index.js';
import { STAFF } from '../accounts/account.js';
import { notifyAccount } from '../accounts/notify.js';
import { emit } from '../events/catalogue.js';
import { MESSAGE_TEMPLATES } from '../messages/templates.js';
import { toEndpoints, type EndpointRow, type WebhookEndpoint } from './webhook-endpoint-view.js';

export type { WebhookEndpoint } from './webhook-endpoint-view.js';
export type WebhookEndpointWithSecret = components['schemas']['WebhookEndpointWithSecret'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
type Input = components['schemas']['WebhookEndpointInput'];
type Update = components['schemas']['WebhookEndpointUpdate'];
type Ctx = Pick<HandlerContext, 'config' | 'clock' | 'scope' | 'reactions' | 'eventSnapshots'>;

/**
 * A company's webhook endpoints, kept by its executive managers: where its public events are
 * delivered (server/platform/webhooks/ sends them), which types, and the signing secret.
 */

/** After a rotation, the previous secret signs beside the new one this long. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/** The sandbox takes http and local addresses, to test on the integrator's own machine. */
export const addressPolicy = (ctx: Pick<HandlerContext, 'config'>) => ({ allowPrivateNetwork: !ctx.config.production });

/** The URL if events may be sent there; 422 WEBHOOK_URL_REFUSED naming why otherwise (a name is resolved now, and again at each send). */
async function checkedUrl(ctx: Pick<HandlerContext, 'config'>, url: string): Promise<string> {
  const policy = addressPolicy(ctx);
  const refused = (reason: string) => new ApiError(422, 'WEBHOOK_URL_REFUSED', `body.url ${reason}`);
  const reason = checkEndpointUrl(url, policy);
  if (reason) throw refused(reason);
  if (policy.allowPrivateNetwork) return url;
  const { hostname } = new URL(url);
  try {
    await resolvePublicAddress(hostname.replace(/^\[|\]$/g, ''), policy);
  } catch (error) {
    if (error instanceof AddressRefusedError) throw refused(`is refused: ${error.message}; events are sent to public addresses only`);
    throw refused(`is refused: ${hostname} does not resolve (${(error as { code?: string }).code ?? 'no address'})`);
  }
  return url;
}

const withSecret = async (scope: TenantScope, row: EndpointRow, now: Date): Promise<WebhookEndpointWithSecret> =>
  ({ ...(await toEndpoints(scope, [row], now))[0], secret: row.secret });

async function endpointRow(scope: TenantScope, id: string, lock = false): Promise<EndpointRow> {
  const row = await scope.selectFrom('webhook_endpoints').selectAll().where('id', '=', id)
    .$if(lock, (qb) => qb.forUpdate()).executeTakeFirst();
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

export async function listEndpoints(ctx: Ctx, query: NonNullable<operations['listWebhookEndpoints']['parameters']['query']>) {
  const filtered = ctx.scope.selectFrom('webhook_endpoints');
  const { rows, paginator } = await newestFirstPage(filtered, filtered.selectAll(), 'webhook_endpoints', { page: query.page!, limit: query.limit! });
  return { data: await toEndpoints(ctx.scope, rows, ctx.clock.now()), paginator };
}

export async function getEndpoint(ctx: Ctx, id: string): Promise<WebhookEndpoint> {
  return (await toEndpoints(ctx.scope, [await endpointRow(ctx.scope, id)], ctx.clock.now()))[0];
}

export async function createEndpoint(ctx: Ctx, staffId: string, body: Input): Promise<WebhookEndpointWithSecret> {
  const url = await checkedUrl(ctx, body.url);
  const now = ctx.clock.now();
  const row = await ctx.scope.insertInto('webhook_endpoints', {
    url, description: body.description ?? null, event_types: body.eventTypes ?? null, enabled: body.enabled ?? true,
    secret: newWebhookSecret(), previous_secret: null, previous_secret_expires_at: null, failing_since: null, disabled_reason: null,
    created_by_staff_id: staffId, created_at: now, updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
  return withSecret(ctx.scope, row, now);
}

export async function updateEndpoint(ctx: Ctx, id: string, body: Update): Promise<WebhookEndpoint> {
  const url = body.url === undefined ? undefined : await checkedUrl(ctx, body.url);
  const now = ctx.clock.now();
  return ctx.scope.transaction(async (scope) => {
    const current = await endpointRow(scope, id, true);
    const enabling = body.enabled === true && !current.enabled;
    const row = await scope.updateTable('webhook_endpoints').set({
      ...(url !== undefined && { url }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.eventTypes !== undefined && { event_types: body.eventTypes }),
      ...(body.enabled !== undefined && { enabled: body.enabled }),
      // Enabled again: a fresh start, whatever made it stop.
      ...(enabling && { disabled_reason: null, failing_since: null }),
      updated_at: now,
    }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    return (await toEndpoints(scope, [row], now))[0];
  });
}

export async function deleteEndpoint(ctx: Ctx, id: string): Promise<void> {
  const gone = await ctx.scope.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) throw notFound('Webhook endpoint');
}

/** A new secret; the current one keeps signing beside it for SECRET_OVERLAP_MS (a second rotation ends the older one's overlap). */
export async function rotateSecret(ctx: Ctx, id: string): Promise<WebhookEndpointWithSecret> {
  const now = ctx.clock.now();
  return ctx.scope.transaction(async (scope) => {
    const current = await endpointRow(scope, id, true);
    const row = await scope.updateTable('webhook_endpoints').set({
      secret: newWebhookSecret(), previous_secret: current.secret,
      previous_secret_expires_at: new Date(now.getTime() + SECRET_OVERLAP_MS), updated_at: now,
    }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    return withSecret(scope, row, now);
  });
}

/** A delivery with its event and every attempt, newest first. */
async function toDeliveries(scope: TenantScope, rows: { id: string; event_id: string; event_type: string; status: string; attempts: number;
  next_attempt_at: Date | null; created_at: Date }[]): Promise<WebhookDelivery[]> {
  const attempts = rows.length === 0 ? [] : await scope.selectFrom('webhook_attempts').selectAll()
    .where('delivery_id', 'in', rows.map((row) => row.id)).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map((row) => ({
    id: row.id,
    event: { id: row.event_id, type: row.event_type as WebhookDelivery['event']['type'] },
    status: row.status as WebhookDelivery['status'],
    attemptCount: row.attempts,
    nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
    attempts: attempts.filter((attempt) => attempt.delivery_id === row.id).map((attempt) => ({
      at: new Date(attempt.created_at).toISOString(), statusCode: attempt.status_code, durationMs: attempt.duration_ms,
      responseExcerpt: attempt.response_excerpt, error: attempt.error,
    })),
  }));
}

const deliveriesOf = (scope: TenantScope, endpointId: string) => scope.selectFrom('webhook_deliveries')
  .innerJoin('domain_events as event', (join) => join.onRef('event.id', '=', 'webhook_deliveries.event_id')
    .onRef('event.tenant_id', '=', 'webhook_deliveries.tenant_id'))
  .where('webhook_deliveries.endpoint_id', '=', endpointId);
const deliveryColumns = ['webhook_deliveries.id', 'webhook_deliveries.event_id', 'event.type as event_type', 'webhook_deliveries.status',
  'webhook_deliveries.attempts', 'webhook_deliveries.next_attempt_at', 'webhook_deliveries.created_at'] as const;

async function oneDelivery(scope: TenantScope, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  const row = await deliveriesOf(scope, endpointId).where('webhook_deliveries.id', '=', deliveryId).select(deliveryColumns).executeTakeFirst();
  if (!row) throw notFound('Webhook delivery');
  return (await toDeliveries(scope, [row]))[0];
}

export async function listDeliveries(ctx: Ctx, endpointId: string, query: NonNullable<operations['listWebhookDeliveries']['parameters']['query']>) {
  await endpointRow(ctx.scope, endpointId);
  const filtered = deliveriesOf(ctx.scope, endpointId)
    .$if(query.status !== undefined, (qb) => qb.where('webhook_deliveries.status', '=', query.status!))
    .$if(query.eventId !== undefined, (qb) => qb.where('webhook_deliveries.event_id', '=', query.eventId!));
  const { rows, paginator } = await newestFirstPage(filtered, filtered.select(deliveryColumns), 'webhook_deliveries',
    { page: query.page!, limit: query.limit!, after: query.after });
  return { data: await toDeliveries(ctx.scope, rows), paginator };
}

/** Sends a delivery again now (the same event, the same webhook-id). */
export async function retryEndpointDelivery(ctx: Ctx, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  return ctx.scope.transaction(async (scope) => {
    await oneDelivery(scope, endpointId, deliveryId);
    await retryDelivery(scope, deliveryId, ctx.clock.now());
    return oneDelivery(scope, endpointId, deliveryId);
  });
}

/** A `webhookEndpoint.ping` event delivered to this endpoint alone (enabled or not, whatever its types). */
export async function sendTestEvent(ctx: Ctx, staffId: string, endpointId: string): Promise<WebhookDelivery> {
  const now = ctx.clock.now();
  return ctx.scope.transaction(async (scope: TransactionScope) => {
    await endpointRow(scope, endpointId);
    const eventId = randomUUID();
    await emit(ctx, scope, { by: 'staff', id: staffId }, { type: 'webhookEndpoint.ping', object: { type: 'webhookEndpoint', id: endpointId }, data: {} }, now,
      { onlyTo: endpointId, id: eventId });
    const delivery = await scope.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId)
      .where('event_id', '=', eventId).executeTakeFirstOrThrow();
    return oneDelivery(scope, endpointId, delivery.id);
  });
}

/**
 * The platform disabled an endpoint whose every delivery failed for days: each active executive
 * manager of the company is told, in the app and by e-mail, with how to enable it again.
 */
export async function tellEndpointDisabled(services: Pick<HandlerContext, 'notifier'>, scope: TransactionScope,
  endpoint: { id: string; url: string; reason: string }) {
  const managers = await scope.selectFrom('staff').select(['id', 'email', 'phone_number'])
    .where('position', '=', 'EXECUTIVE_MANAGER').where('is_active', '=', true).execute();
  for (const manager of managers) {
    await notifyAccount(services, scope, STAFF, manager, {
      title: 'Webhook endpoint disabled',
      body: `Events are no longer sent to ${endpoint.url}: ${endpoint.reason}. Fix the receiver, then enable the endpoint again `
        + '(PATCH /staff/webhook-endpoints/{id} with enabled: true); events of the meantime are in GET /staff/events.',
      entity: { name: 'webhookEndpoint', id: endpoint.id },
      message: { template: MESSAGE_TEMPLATES.webhookEndpointDisabled },
    });
  }
}
