import type { TenantScope } from '../platform/tenancy.js';
import { directDebitQuery, directDebitColumns, toDirectDebits } from './money/direct-debit-view.js';
import { companyInvoice } from './money/invoice-view.js';
import { companyTransaction } from './money/transaction-view.js';
import { closureColumns, companyClosures, toPolicyClosure } from './policies/closures.js';
import { toStaffClients } from './clients/staff-view.js';
import { productSeenBy } from './products/visible.js';
import { staffQuery, toStaff } from './staff/view.js';
import { companyPolicy } from './policies/view.js';
import { claimColumns, companyClaims, toClaims } from './claims/view.js';
import { endpointView } from './integrations/webhook-endpoint-view.js';
import type { DomainEvent } from './events/catalogue.js';

import type { EventSnapshots } from '../platform/events.js';

type ObjectType = DomainEvent['object']['type'];

/**
 * Each event's object as the API answers it (the same view as its own GET), read in the
 * transaction that records the event: what `data.object` of the event and its webhooks holds.
 * Above the domain's folders (as reactions.ts is), since it reads each one's views; wired at the
 * composition root.
 */
const SNAPSHOTS: { [T in ObjectType]: (scope: TenantScope, id: string, at: Date) => Promise<object> } = {
  async client(scope, id, at) {
    return (await toStaffClients(scope, [await scope.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirstOrThrow()], at))[0];
  },
  policy: (scope, id) => companyPolicy(scope, id),
  invoice: (scope, id) => companyInvoice(scope, id),
  async policyClosure(scope, id) {
    return toPolicyClosure(await companyClosures(scope).where('policy_closures.id', '=', id).select(closureColumns).executeTakeFirstOrThrow());
  },
  async directDebit(scope, id) {
    const { client_id: clientId } = await scope.selectFrom('direct_debits').select('client_id').where('id', '=', id).executeTakeFirstOrThrow();
    const row = await directDebitQuery(scope, clientId).where('direct_debits.id', '=', id).select(directDebitColumns).executeTakeFirstOrThrow();
    return (await toDirectDebits(scope, [row]))[0];
  },
  transaction: (scope, id, at) => companyTransaction(scope, id, at),
  /** As staff's GET /staff/claims/{id} answers it: its documents included. */
  async claim(scope, id) {
    const row = await companyClaims(scope).where('claims.id', '=', id).select(claimColumns).executeTakeFirstOrThrow();
    return (await toClaims(scope, [row], { withDocuments: true }))[0];
  },
  product: (scope, id) => productSeenBy(scope.db, scope.tenantId, id),
  async staff(scope, id) {
    return toStaff(await staffQuery(scope).where('staff.id', '=', id).executeTakeFirstOrThrow());
  },
  webhookEndpoint: (scope, id, at) => endpointView(scope, id, at),
};

/** The domain's snapshots, as the services hand them to `emit`. */
export const domainSnapshots: EventSnapshots = async (scope, object, at) =>
  (await SNAPSHOTS[object.type as ObjectType](scope, object.id, at)) as Record<string, unknown>;
