import { sql } from 'kysely';
import type { components, operations } from '../../../generated/api.js';
import type { Db } from '../../platform/db/database.js';
import { newestFirstPage } from '../../platform/export/listing.js';
import { createdOnDays } from '../../platform/filters.js';
import { TenantScope } from '../../platform/tenancy.js';
import { companyById } from '../companies/rules.js';

export type AuditEvent = components['schemas']['AuditEvent'];
type AuditQuery = NonNullable<operations['listAuditEvents']['parameters']['query']>;

/**
 * The audit trail as it is read: the rows the audited tables' trigger wrote (migration 029) for
 * staff members' and the operator's calls, newest first, with who made each call as they are named
 * now. Fields keep their stored names, in the API's camelCase.
 */

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
const camelFields = (fields: Record<string, unknown> | null) =>
  fields === null ? null : Object.fromEntries(Object.entries(fields).map(([name, value]) => [camel(name), value]));

/** One page of a company's audit events, narrowed by the list's filters. */
export async function auditEventPage(scope: TenantScope, query: AuditQuery): Promise<{ data: AuditEvent[]; paginator: components['schemas']['Paginator'] }> {
  const filtered = scope.selectFrom('audit_events')
    .$if(query.actorId !== undefined, (qb) => qb.where('audit_events.actor_id', '=', query.actorId!))
    .$if(query.actorKind !== undefined, (qb) => qb.where('audit_events.actor_kind', '=', query.actorKind!))
    .$if(query.action !== undefined, (qb) => qb.where('audit_events.action', '=', query.action!))
    .$if(query.entityType !== undefined, (qb) => qb.where('audit_events.entity_type', '=', query.entityType!))
    .$if(query.entityId !== undefined, (qb) => qb.where('audit_events.entity_id', '=', query.entityId!))
    .where(createdOnDays('audit_events.created_at', query));
  const columns = filtered
    .leftJoin('staff as actor', (join) => join.onRef('actor.id', '=', 'audit_events.actor_id').onRef('actor.tenant_id', '=', 'audit_events.tenant_id'))
    .selectAll('audit_events')
    .select(sql<string | null>`nullif(concat_ws(' ', actor.first_name, actor.other_names, actor.last_name), '')`.as('actor_full_name'));
  const { rows, paginator } = await newestFirstPage(filtered, columns, 'audit_events', { page: query.page!, limit: query.limit!, after: query.after });
  return {
    data: rows.map((row) => ({
      id: row.id,
      at: new Date(row.created_at).toISOString(),
      actor: {
        kind: row.actor_kind,
        id: row.actor_id,
        position: row.actor_position as AuditEvent['actor']['position'],
        fullName: row.actor_full_name,
      },
      action: row.action,
      entity: { type: row.entity_type as AuditEvent['entity']['type'], id: row.entity_id },
      change: row.change,
      before: camelFields(row.before),
      after: camelFields(row.after),
      requestId: row.request_id,
      address: row.address,
    })),
    paginator,
  };
}

/** The operator's read of a company's trail (404 for no such company). */
export async function companyAuditEventPage(db: Db, companyId: string, query: AuditQuery) {
  await companyById(db, companyId);
  return auditEventPage(new TenantScope(db, companyId), query);
}
