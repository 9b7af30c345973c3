import type { EventReactions, EventServices, RecordedEvent } from '../platform/events.js';
import type { TransactionScope } from '../platform/tenancy.js';
import type { DomainEvent, DomainEventType } from './events/catalogue.js';
import { stopBillingClosedPolicy } from './money/closed-policy-billing.js';
import { activatePaidPolicies, awaitDebits } from './policies/activation.js';

type Reaction<T extends DomainEventType> = (scope: TransactionScope, event: Extract<DomainEvent, { type: T }> & RecordedEvent,
  services: EventServices) => Promise<string[] | void>;

/**
 * What follows each business event, in the transaction that recorded it: the one place where one
 * noun's change moves another's (server/domain/README.md, "Effects across nouns"). Every event
 * type has a row, an empty one when nothing in the domain follows it yet (webhooks will).
 */
export const REACTIONS: { [T in DomainEventType]: Reaction<T>[] } = {
  'client.created': [],
  'client.updated': [],
  'client.deactivated': [],
  'policy.created': [],
  'policy.updated': [],
  'policy.stateChanged': [],
  'policy.renewed': [],
  'policy.cancelled': [],
  'invoice.created': [],
  'invoice.paid': [(scope, event, services) => activatePaidPolicies(services, scope, event.object.id, event.at)],
  'invoice.closed': [],
  'transaction.created': [],
  'transaction.approved': [],
  'transaction.rejected': [],
  'transaction.failed': [],
  'directDebit.created': [(scope, event, services) => awaitDebits(services, scope, event.data.policyId, event.at)],
  'directDebit.collected': [],
  'directDebit.failed': [],
  'directDebit.cancelled': [],
  'claim.filed': [],
  'claim.reviewed': [],
  'claim.stageChanged': [],
  'claim.settled': [],
  'claim.closed': [],
  'policyClosure.requested': [],
  'policyClosure.approved': [(scope, event, services) => stopBillingClosedPolicy(services, scope, event.data, event.actor, event.at)],
  'policyClosure.rejected': [],
  'product.created': [],
  'product.assigned': [],
  'product.unassigned': [],
  'staff.created': [],
  'staff.deactivated': [],
  'webhookEndpoint.ping': [],
};

/** Runs the reactions to an event in order and answers what they did, in words. */
export const domainReactions: EventReactions = async (scope, event, services) => {
  const followed: string[] = [];
  for (const react of REACTIONS[event.type as DomainEventType] as Reaction<DomainEventType>[]) {
    followed.push(...((await react(scope, event as Extract<DomainEvent, { type: DomainEventType }> & RecordedEvent, services)) ?? []));
  }
  return followed;
};
