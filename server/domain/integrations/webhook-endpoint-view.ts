import type { Selectable } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { WebhookEndpointsTable } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { staffReferences } from '../staff/names.js';

export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
export type EndpointRow = Selectable<WebhookEndpointsTable>;

/** Endpoints as the API answers them: never the secret. */
export async function toEndpoints(scope: TenantScope, rows: EndpointRow[], now: Date): Promise<WebhookEndpoint[]> {
  const names = await staffReferences(scope, rows.map((row) => row.created_by_staff_id));
  return rows.map((row) => ({
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types as WebhookEndpoint['eventTypes'],
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since ? new Date(row.failing_since).toISOString() : null,
    secretRotatedUntil: row.previous_secret_expires_at && row.previous_secret_expires_at > now ? new Date(row.previous_secret_expires_at).toISOString() : null,
    createdBy: row.created_by_staff_id ? names.get(row.created_by_staff_id) ?? null : null,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  }));
}

/** One endpoint as the API answers it (a test event's object). */
export async function endpointView(scope: TenantScope, id: string, now: Date): Promise<WebhookEndpoint> {
  const row = await scope.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return (await toEndpoints(scope, [row], now))[0];
}
