import type { Services } from '../../platform/context.js';
import { recordEvent, type EventActor } from '../../platform/events.js';
import type { TransactionScope } from '../../platform/tenancy.js';

/**
 * The business events one part of the domain records and another reacts to, in the transaction
 * that made the change (server/domain/README.md, "Effects across nouns"). Each names its object
 * and carries the facts a reaction needs, so no reaction reads back through the emitter's folder.
 */
export type DomainEvent =
  /** A client account was opened (signed up, or by staff), changed (profile, contact, verification, reassignment, reactivation) or deactivated (by staff, or closed by the client). */
  | { type: 'client.created' | 'client.updated' | 'client.deactivated'; object: { type: 'client'; id: string }; data: Record<string, never> }
  /** Confirmed money now covers the invoice: the policies it bills move on. */
  | { type: 'invoice.paid'; object: { type: 'invoice'; id: string }; data: { invoiceNo: string } }
  /** Staff approved a closure request and its policy is CANCELLED: what the policy owed stops. */
  | { type: 'policyClosure.approved'; object: { type: 'policyClosure'; id: string }; data: { policyId: string; policyNo: string; invoiceIds: string[] } }
  /** A client set up a direct debit mandate on a policy: the policy waits for its debits. */
  | { type: 'directDebit.created'; object: { type: 'directDebit'; id: string }; data: { policyId: string } }
  /** A payment was confirmed (APPROVED by staff or the provider, or VERIFIED mobile money), REJECTED by staff, or it failed (ERROR, CANCELLED). */
  | { type: 'transaction.approved' | 'transaction.rejected' | 'transaction.failed'; object: { type: 'transaction'; id: string }; data: Record<string, never> }
  /** An insurer created a product. */
  | { type: 'product.created'; object: { type: 'product'; id: string }; data: Record<string, never> }
  /** An insurer assigned its product to another company (`companyId`) or withdrew it: recorded in both companies. */
  | { type: 'product.assigned' | 'product.unassigned'; object: { type: 'product'; id: string }; data: { companyId: string } }
  /** A staff member was added (by a manager, or a new company's first executive manager by the platform operator) or deactivated. */
  | { type: 'staff.created' | 'staff.deactivated'; object: { type: 'staff'; id: string }; data: Record<string, never> }
  /** An executive manager asked for a test delivery to one webhook endpoint. */
  | { type: 'webhookEndpoint.ping'; object: { type: 'webhookEndpoint'; id: string }; data: Record<string, never> };

export type DomainEventType = DomainEvent['type'];

/**
 * Records `event` with who made it and its object as the API answers it now (delivered to the
 * company's webhooks), runs what follows it in the same transaction, and answers what followed (in words).
 */
export async function emit(services: Pick<Services, 'reactions' | 'eventSnapshots'>, scope: TransactionScope, actor: EventActor, event: DomainEvent, at: Date,
  options: { onlyTo?: string; id?: string; previous?: Record<string, unknown> } = {}): Promise<string[]> {
  const payload = await services.eventSnapshots(scope, event.object, at);
  return recordEvent(services.reactions, scope, { ...event, actor, payload, ...options }, at);
}
