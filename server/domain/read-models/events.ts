import type { components, operations } from '../../../generated/api.js';
import { notFound } from '../../platform/errors.js';
import { eventEnvelope } from '../../platform/event-envelope.js';
import { newestFirstPage } from '../../platform/export/listing.js';
import { createdOnDays } from '../../platform/filters.js';
import type { TenantScope } from '../../platform/tenancy.js';

export type Event = components['schemas']['Event'];
type EventQuery = NonNullable<operations['listEvents']['parameters']['query']>;

/**
 * The company's business events as integrators read them (`GET /staff/events`), in the envelope a
 * webhook delivers. Only public events: those recorded with the object as the API answered it
 * (`payload`, with the contract version it is in, migration 030); internal ones stay the platform's.
 */

/** The tenant's public events. */
const publicEvents = (scope: TenantScope) => scope.selectFrom('domain_events')
  .where('domain_events.payload', 'is not', null)
  .where('domain_events.api_version', 'is not', null);

/** One page of the company's public events, newest first, narrowed by the list's filters. */
export async function eventPage(scope: TenantScope, query: EventQuery): Promise<{ data: Event[]; paginator: components['schemas']['Paginator'] }> {
  const filtered = publicEvents(scope)
    .$if(query.type !== undefined, (qb) => qb.where('domain_events.type', 'in', query.type!))
    .$if(query.objectId !== undefined, (qb) => qb.where('domain_events.object_id', '=', query.objectId!))
    .where(createdOnDays('domain_events.created_at', query));
  const { rows, paginator } = await newestFirstPage(filtered, filtered.selectAll('domain_events'), 'domain_events',
    { page: query.page!, limit: query.limit!, after: query.after });
  return { data: rows.map(eventEnvelope), paginator };
}

/** One of the company's public events (404 for another company's, an internal one or none). */
export async function eventById(scope: TenantScope, id: string): Promise<Event> {
  const row = await publicEvents(scope).where('domain_events.id', '=', id).selectAll('domain_events').executeTakeFirst();
  if (!row) throw notFound('Event');
  return eventEnvelope(row);
}
