import type { EventReactions, RecordedEvent } from '../platform/events.js';
import type { TransactionScope } from '../platform/tenancy.js';
import type { DomainEvent, DomainEventType, EventServices } from './events/catalogue.js';
import { stopBillingClosedPolicy } from './money/closed-policy-billing.js';
import { activatePaidPolicies, awaitDebits } from './policies/activation.js';
import { domainSnapshots } from './snapshots.js';

type Reaction<T extends DomainEventType> = (scope: TransactionScope, event: Extract<DomainEvent, { type: T }> & RecordedEvent) => Promise<string[] | void>;

/**
 * What follows each business event, in the transaction that recorded it: the one place where one
 * noun's change moves another's (server/domain/README.md, "Effects across nouns"). Every event
 * type has a row, an empty one when nothing in the domain follows it yet (webhooks will).
 */
export const REACTIONS: { [T in DomainEventType]: Reaction<T>[] } = {
  'invoice.created': [],
  'invoice.paid': [(scope, event) => activatePaidPolicies(scope, event.object.id, event.at)],
  'invoice.closed': [],
  'policyClosure.approved': [(scope, event) => stopBillingClosedPolicy(EVENTS, scope, event.data, event.actor, event.at)],
  'directDebit.created': [(scope, event) => awaitDebits(scope, event.data.policyId, event.at)],
  'directDebit.collected': [],
  'directDebit.failed': [],
  'directDebit.cancelled': [],
  'transaction.created': [],
  'transaction.approved': [],
  'transaction.rejected': [],
  'transaction.failed': [],
  'claim.filed': [],
  'claim.reviewed': [],
  'claim.stageChanged': [],
  'claim.settled': [],
  'claim.closed': [],
  'webhookEndpoint.ping': [],
};

/**
 * What a reaction records its own events with (a closure's cancelled mandates, say): the domain's
 * reactions and snapshots, as the composition root wires them.
 */
const EVENTS: EventServices = { reactions: (scope, event) => domainReactions(scope, event), eventSnapshots: domainSnapshots };

/** Runs the reactions to an event in order and answers what they did, in words. */
export const domainReactions: EventReactions = async (scope, event) => {
  const followed: string[] = [];
  for (const react of REACTIONS[event.type as DomainEventType] as Reaction<DomainEventType>[]) {
    followed.push(...((await react(scope, event as Extract<DomainEvent, { type: DomainEventType }> & RecordedEvent)) ?? []));
  }
  return followed;
};
