import type { EventReactions, RecordedEvent } from '../platform/events.js';
import type { TransactionScope } from '../platform/tenancy.js';
import type { DomainEvent, DomainEventType } from './events/catalogue.js';
import { stopBillingClosedPolicy } from './money/closed-policy-billing.js';
import { activatePaidPolicies, awaitDebits } from './policies/activation.js';

type Reaction<T extends DomainEventType> = (scope: TransactionScope, event: Extract<DomainEvent, { type: T }> & RecordedEvent) => Promise<string[] | void>;

/**
 * What follows each business event, in the transaction that recorded it: the one place where one
 * noun's change moves another's (server/domain/README.md, "Effects across nouns"). Every event
 * type has a row, an empty one when nothing in the domain follows it yet (webhooks will).
 */
export const REACTIONS: { [T in DomainEventType]: Reaction<T>[] } = {
  'client.created': [],
  'client.updated': [],
  'client.deactivated': [],
  'invoice.paid': [(scope, event) => activatePaidPolicies(scope, event.object.id, event.at)],
  'policyClosure.approved': [(scope, event) => stopBillingClosedPolicy(scope, event.data, event.actor, event.at)],
  'directDebit.created': [(scope, event) => awaitDebits(scope, event.data.policyId, event.at)],
  'transaction.approved': [],
  'transaction.rejected': [],
  'transaction.failed': [],
  'product.created': [],
  'product.assigned': [],
  'product.unassigned': [],
  'staff.created': [],
  'staff.deactivated': [],
  'webhookEndpoint.ping': [],
};

/** Runs the reactions to an event in order and answers what they did, in words. */
export const domainReactions: EventReactions = async (scope, event) => {
  const followed: string[] = [];
  for (const react of REACTIONS[event.type as DomainEventType] as Reaction<DomainEventType>[]) {
    followed.push(...((await react(scope, event as Extract<DomainEvent, { type: DomainEventType }> & RecordedEvent)) ?? []));
  }
  return followed;
};
