import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { Services } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { PaymentMethod, TransactionStatus } from '../../platform/db/schema.js';
import { conflict, notFound } from '../../platform/errors.js';
import { TenantScope } from '../../platform/tenancy.js';
import { lockInvoice, settlePayment } from './payments.js';
import type { EventOutcome, PaymentProvider, ProviderEvent } from '../../platform/payments/provider.js';

export type WebhookAck = components['schemas']['PaymentWebhookAck'];
type Outcome = WebhookAck['outcome'];

/** The provider that receives webhooks under `name` (the configured one), if any. */
export function providerNamed(services: Pick<Services, 'payments'>, name: string | undefined): PaymentProvider | undefined {
  return name !== undefined && services.payments.name === name ? services.payments : undefined;
}

/**
 * A provider's webhook, its signature already checked over the raw body: the provider it is
 * addressed to (404 unless the configured one) reads the event, which is then processed.
 */
export async function receiveWebhook(services: Pick<Services, 'db' | 'clock' | 'notifier' | 'payments' | 'reactions' | 'eventSnapshots'>, providerName: string,
  body: unknown): Promise<WebhookAck> {
  const provider = providerNamed(services, providerName);
  if (!provider) throw notFound('Payment provider');
  return receivePaymentEvent(services, provider.name, provider.parseEvent(body), body);
}

/**
 * The payment a provider's reference names, and its tenant. Callers without an `Api-Key` (the
 * provider's webhook, the payer's browser on the sandbox pages) know only the reference, so this
 * is the one query over every tenant's payments; it reads no more than the ids, and everything
 * after it goes through a `TenantScope` for the tenant found.
 */
export async function findPaymentByReference(db: Db, provider: string, reference: string) {
  const rows = await db.selectFrom('transactions').select(['tenant_id', 'id'])
    .where('provider', '=', provider).where('provider_reference', '=', reference)
    .limit(2).execute();
  // References are unique per tenant; the sandbox's hold a payment id, unique everywhere. A real
  // provider shared by tenants reusing one would need the tenant in the webhook's address.
  if (rows.length > 1) throw conflict(`Payment reference ${reference} names payments of several tenants`, 'AMBIGUOUS_REFERENCE');
  return rows[0] ? { tenantId: rows[0].tenant_id, transactionId: rows[0].id } : undefined;
}

/** Where an event moves a payment, by how it is paid; `null` when it settles nothing. */
export function eventStatus(method: PaymentMethod, outcome: EventOutcome): TransactionStatus | null {
  if (method === 'ONLINE') return outcome === 'succeeded' ? 'APPROVED' : outcome === 'failed' ? 'ERROR' : outcome === 'cancelled' ? 'CANCELLED' : null;
  // A wallet prompt is approved or not: declined, timed out and failed are all ERROR.
  if (method === 'MOBILE_MONEY') return outcome === 'succeeded' ? 'VERIFIED' : outcome ? 'ERROR' : null;
  return null;
}

const OPEN: readonly TransactionStatus[] = ['PENDING_PAYMENT', 'PENDING_VERIFICATION'];

/**
 * Processes a verified provider event, in one database transaction: the event is recorded first,
 * once per event id (a second delivery changes nothing and says it is a duplicate); then, under
 * the invoice's lock, the payment moves to the event's outcome, unless it is already settled (a
 * late or out-of-order event: ignored) or the event's money differs from the payment's (the payment
 * becomes ERROR). Every event keeps its outcome.
 */
export async function receivePaymentEvent(services: Pick<Services, 'db' | 'clock' | 'notifier' | 'reactions' | 'eventSnapshots'>, provider: string,
  event: ProviderEvent, payload: unknown): Promise<WebhookAck> {
  const now = services.clock.now();
  const found = await findPaymentByReference(services.db, provider, event.reference);
  if (!found) throw notFound('Payment');
  return new TenantScope(services.db, found.tenantId).transaction(async (scope) => {
    const statusNow = async () => (await scope.selectFrom('transactions').select('status')
      .where('id', '=', found.transactionId).executeTakeFirstOrThrow()).status;
    // Locks in one order, the invoice first: events about one payment wait for each other here.
    // (Recording the event first took a key-share lock on the payment's row through the foreign
    // key, which deadlocked with the settling event's update of that row.)
    const { invoice_id: invoiceId } = await scope.selectFrom('transactions').select('invoice_id').where('id', '=', found.transactionId).executeTakeFirstOrThrow();
    await lockInvoice(scope, invoiceId);
    const recorded = await scope.insertInto('payment_events', {
      provider, event_id: event.id, type: event.type, transaction_id: found.transactionId,
      payload: JSON.stringify(payload), outcome: 'received', received_at: now,
    }).onConflict((oc) => oc.columns(['tenant_id', 'provider', 'event_id']).doNothing()).returning('event_id').executeTakeFirst();
    if (!recorded) {
      const first = await scope.selectFrom('payment_events').select('outcome')
        .where('provider', '=', provider).where('event_id', '=', event.id).executeTakeFirstOrThrow();
      return { received: true, duplicate: true, outcome: first.outcome as Outcome, transactionStatus: await statusNow() };
    }

    const payment = await scope.selectFrom('transactions').select(['id', 'status', 'payment_method', 'amount', 'currency'])
      .where('id', '=', found.transactionId).executeTakeFirstOrThrow();
    const to = eventStatus(payment.payment_method, event.outcome);
    const actor = { by: 'provider' as const, id: provider };
    let outcome: Outcome;
    if (!OPEN.includes(payment.status) || !to) {
      outcome = 'ignored';
    } else if (event.currency !== payment.currency || !new Decimal(event.amount).equals(payment.amount)) {
      await settlePayment(services, scope, {
        transactionId: payment.id, to: 'ERROR', actor, at: now,
        notes: `${provider} event ${event.id} (${event.type}) reported ${event.currency} ${event.amount}, not ${payment.currency} ${new Decimal(payment.amount).toFixed(2)}`,
      });
      outcome = 'amount_mismatch';
    } else {
      await settlePayment(services, scope, { transactionId: payment.id, to, actor, at: now, notes: `${provider} event ${event.id} (${event.type})` });
      outcome = 'settled';
    }
    await scope.updateTable('payment_events').set({ outcome }).where('provider', '=', provider).where('event_id', '=', event.id).execute();
    return { received: true, duplicate: false, outcome, transactionStatus: await statusNow() };
  });
}
