import type { PolicyState } from '../../platform/db/schema.js';
import { recordEvent, type EventActor, type EventServices } from '../../platform/events.js';
import type { TransactionScope } from '../../platform/tenancy.js';

/**
 * The business events one part of the domain records and another reacts to, in the transaction
 * that made the change (server/domain/README.md, "Effects across nouns"). Each names its object
 * and carries the facts a reaction needs, so no reaction reads back through the emitter's folder.
 */
export type DomainEvent =
  /** A client account was opened (signed up, or by staff), changed (profile, contact, verification, reassignment, reactivation) or deactivated (by staff, or closed by the client). */
  | { type: 'client.created' | 'client.updated' | 'client.deactivated'; object: { type: 'client'; id: string }; data: Record<string, never> }
  /** A policy was written: bought by its client (alone or in a cart checkout) or sold by staff, once billed. */
  | { type: 'policy.created'; object: { type: 'policy'; id: string }; data: Record<string, never> }
  /** A client changed its policy's details or cover (`previous`: the fields that changed). */
  | { type: 'policy.updated'; object: { type: 'policy'; id: string }; data: Record<string, never> }
  /** A policy moved from one state to another (`movePolicy`, the one place that moves them). */
  | { type: 'policy.stateChanged'; object: { type: 'policy'; id: string }; data: { from: PolicyState; to: PolicyState } }
  /** A policy renewing another was written (besides its `policy.created`): the object is the renewal. */
  | { type: 'policy.renewed'; object: { type: 'policy'; id: string }; data: { oldPolicyId: string } }
  /** A policy became CANCELLED (besides its `policy.stateChanged`). */
  | { type: 'policy.cancelled'; object: { type: 'policy'; id: string }; data: { from: PolicyState } }
  /** An invoice was raised (a policy's, a cart checkout's, a draft's; by the client, staff or the system). */
  | { type: 'invoice.created'; object: { type: 'invoice'; id: string }; data: Record<string, never> }
  /** Confirmed money now covers the invoice: the policies it bills move on. */
  | { type: 'invoice.paid'; object: { type: 'invoice'; id: string }; data: { invoiceNo: string } }
  /** An invoice was closed without being paid in full: its policy was closed (what was unpaid is written off) or deleted unpaid. */
  | { type: 'invoice.closed'; object: { type: 'invoice'; id: string }; data: Record<string, never> }
  /** A client (or staff at the counter, for it) asked to close one of its policies. */
  | { type: 'policyClosure.requested'; object: { type: 'policyClosure'; id: string }; data: Record<string, never> }
  /** Staff approved a closure request and its policy is CANCELLED: what the policy owed stops. */
  | { type: 'policyClosure.approved'; object: { type: 'policyClosure'; id: string }; data: { policyId: string; policyNo: string; invoiceIds: string[] } }
  /** Staff rejected a closure request: the policy carries on. */
  | { type: 'policyClosure.rejected'; object: { type: 'policyClosure'; id: string }; data: Record<string, never> }
  /** A client set up a direct debit mandate on a policy: the policy waits for its debits. */
  | { type: 'directDebit.created'; object: { type: 'directDebit'; id: string }; data: { policyId: string } }
  /** A debit of a mandate was collected (its payment confirmed) or failed (its payment did not go through). */
  | { type: 'directDebit.collected' | 'directDebit.failed'; object: { type: 'directDebit'; id: string }; data: { transactionId: string } }
  /** An ACTIVE mandate was cancelled: by the client or staff, by the due-debit job (policy ended), or by a policy's closure. */
  | { type: 'directDebit.cancelled'; object: { type: 'directDebit'; id: string }; data: Record<string, never> }
  /** A payment of an invoice was recorded (by the client, staff for it, or the due-debit job). */
  | { type: 'transaction.created'; object: { type: 'transaction'; id: string }; data: Record<string, never> }
  /** A payment was confirmed (APPROVED by staff or the provider, or VERIFIED mobile money), REJECTED by staff, or it failed (ERROR, CANCELLED). */
  | { type: 'transaction.approved' | 'transaction.rejected' | 'transaction.failed'; object: { type: 'transaction'; id: string }; data: Record<string, never> }
  /**
   * A claim was filed (by the client or staff for it), reviewed by staff, moved (any stage or
   * status move), settled (stage SETTLED) or closed (status CLOSED, or withdrawn by the client).
   */
  | { type: 'claim.filed' | 'claim.reviewed' | 'claim.stageChanged' | 'claim.settled' | 'claim.closed'; object: { type: 'claim'; id: string };
    data: Record<string, never> }
  /** An insurer created a product. */
  | { type: 'product.created'; object: { type: 'product'; id: string }; data: Record<string, never> }
  /** An insurer assigned its product to another company (`companyId`) or withdrew it: recorded in both companies. */
  | { type: 'product.assigned' | 'product.unassigned'; object: { type: 'product'; id: string }; data: { companyId: string } }
  /** A staff member was added (by a manager, or a new company's first executive manager by the platform operator) or deactivated. */
  | { type: 'staff.created' | 'staff.deactivated'; object: { type: 'staff'; id: string }; data: Record<string, never> }
  /** An executive manager asked for a test delivery to one webhook endpoint. */
  | { type: 'webhookEndpoint.ping'; object: { type: 'webhookEndpoint'; id: string }; data: Record<string, never> };

export type DomainEventType = DomainEvent['type'];

/** What emitting an event needs: the reactions that follow it and the snapshot of its object. */
export type { EventServices };

/**
 * Records `event` with who made it, runs what follows it in the same transaction, and answers what
 * followed (in words). Its object is read as the API answers it once the transaction's work is
 * done, just before it commits (every reaction run: a GET right after the call answers the same),
 * and delivered to the company's webhooks.
 */
export async function emit(services: EventServices, scope: TransactionScope, actor: EventActor, event: DomainEvent, at: Date,
  options: { onlyTo?: string; id?: string; previous?: Record<string, unknown>;
    /** The change removes the object (a deleted invoice, a withdrawn claim): it is read now, as last answered. */
    removes?: boolean } = {}): Promise<string[]> {
  const { removes, ...rest } = options;
  const payload = removes ? await services.eventSnapshots(scope, event.object, at) as Record<string, unknown> : undefined;
  return recordEvent(services, scope, { ...event, actor, public: true, ...(payload && { payload }), ...rest }, at);
}
