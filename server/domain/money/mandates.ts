import type { Insertable } from 'kysely';
import type { components } from '../../../generated/api.js';
import type { HandlerContext, StaffActor } from '../../platform/context.js';
import { reachableClient } from '../clients/staff-clients.js';
import { clientInReach } from '../staff/reach.js';
import { violatedUniqueConstraint } from '../../platform/db/errors.js';
import type { DirectDebitsTable } from '../../platform/db/schema.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import type { TenantScope, TransactionScope } from '../../platform/tenancy.js';
import { ownRow } from '../../platform/ownership.js';
import { emit, type EventServices } from '../events/catalogue.js';
import { toCents } from './billing.js';
import { ownDirectDebit } from './direct-debit-view.js';
import { cancelActiveMandate, DEBITABLE_STATES } from './direct-debits.js';
import { leftToPay, lockInvoice } from './payments.js';
import { todayOf } from '../../platform/clock.js';
import { notifyClient } from '../accounts/notify.js';

export type DirectDebitCreate = components['schemas']['DirectDebitCreate'];
export type DirectDebitCancel = components['schemas']['DirectDebitCancel'];

/** What a mandate service needs: the clock, the client's rows, and the notifier to tell the client. */
type MandateServices = Pick<HandlerContext, 'clock' | 'notifier' | 'scope' | 'reactions' | 'eventSnapshots'>;
/** Who sets up or cancels a mandate: the client itself, or a staff member for a client within their reach. */
export type MandateActor = { by: 'client' | 'staff'; id: string };

const activeConflict = (policyNo: string) =>
  conflict(`Policy ${policyNo} already has an active direct debit; cancel it first`, 'DIRECT_DEBIT_ACTIVE');

/**
 * Sets up a direct debit mandate on one of the client's unpaid policies and answers its id; the
 * due-debit job raises its payments. The policy's move to AWAITING_DEBIT follows `directDebit.created`
 * (server/domain/policies/activation.ts) and is the system's, whoever asked; the event names `actor`.
 */
export async function setUpMandate(ctx: MandateServices, clientId: string, body: DirectDebitCreate, actor: MandateActor): Promise<string> {
  const now = ctx.clock.now();
  const today = todayOf(now).date;
  if (body.startDate < today) throw badRequest(`body.startDate must not be in the past (today is ${today})`);
  if (body.endDate !== undefined && body.endDate < body.startDate) throw badRequest('body.endDate must be on or after body.startDate');

  return ctx.scope.transaction(async (scope) => {
    const { policy, invoice } = await lockDebitablePolicy(ctx, scope, clientId, body, now);
    const client = await scope.selectFrom('clients').select(['id', 'email', 'phone_number']).where('id', '=', clientId).executeTakeFirstOrThrow();
    const mobileNumber = body.mobileNumber ?? client.phone_number;
    if (!mobileNumber) throw badRequest('body.mobileNumber is required: the account has no phone number to debit');
    const amount = toCents(body.amount ? body.amount : policy.premium);
    if (amount.lessThanOrEqualTo(0)) throw badRequest('body.amount is required: the policy has no premium to debit');

    const id = await insertMandate(scope, policy.policy_no, {
      policy_id: policy.id,
      invoice_id: invoice.id,
      client_id: clientId,
      amount: amount.toFixed(2),
      currency: invoice.currency,
      frequency: body.frequency,
      start_date: body.startDate,
      end_date: body.endDate ?? null,
      next_debit_date: body.startDate,
      mobile_number: mobileNumber,
      description: body.description ?? null,
      created_at: now,
      updated_at: now,
    });
    await emit(ctx, scope, actor, { type: 'directDebit.created', object: { type: 'directDebit', id }, data: { policyId: policy.id } }, now);
    const every = body.frequency.toLowerCase().replace('_', '-');
    await notifyClient(ctx, scope, client, {
      title: `Direct debit for policy ${policy.policy_no} set up`,
      body: `${invoice.currency} ${amount.toFixed(2)} will be debited ${every} from ${mobileNumber}, from ${body.startDate}`
        + `${body.endDate ? ` until ${body.endDate}` : ''}, until invoice ${invoice.invoice_no} is paid. Approve each prompt on your phone.`,
      entity: { name: 'directDebit', id },
    });
    return id;
  });
}

/**
 * The client's policy a mandate is asked for, locked as payments lock (its invoice, then it), so
 * two mandates for one policy cannot both be active and a payment settling the invoice meanwhile
 * is seen: it must be debitable, start by its end date, have no active mandate and owe money.
 */
async function lockDebitablePolicy(services: EventServices, scope: TransactionScope, clientId: string, body: DirectDebitCreate, now: Date) {
  const found = await clientPolicy(scope, body.policyId, clientId);
  const invoice = found.invoice_id ? await lockInvoice(scope, found.invoice_id) : undefined;
  const policy = await clientPolicy(scope, body.policyId, clientId, { lock: true });
  if (!DEBITABLE_STATES.includes(policy.state) || !invoice) {
    throw conflict(`Policy ${policy.policy_no} is ${policy.state}; a direct debit can be set up only while it is ${DEBITABLE_STATES.join(' or ')}`,
      'NOT_DEBITABLE');
  }
  if (body.startDate > policy.end_date) throw badRequest(`body.startDate must not be after the policy's endDate (${policy.end_date})`);
  const active = await scope.selectFrom('direct_debits').select('id').where('policy_id', '=', policy.id).where('status', '=', 'ACTIVE').executeTakeFirst();
  if (active) throw activeConflict(policy.policy_no);
  await leftToPay(services, scope, invoice, now);
  return { policy, invoice };
}

/** What a mandate reads of the client's policy it is asked for (and the invoice billing it), or 404. */
const clientPolicy = (scope: TenantScope, id: string, clientId: string, options: { lock?: boolean } = {}) =>
  ownRow(scope.selectFrom('policies')
    .leftJoin('invoice_items as billed', (join) => join.onRef('billed.policy_id', '=', 'policies.id').onRef('billed.tenant_id', '=', 'policies.tenant_id'))
    .select(['policies.id', 'policies.policy_no', 'policies.state', 'policies.end_date', 'policies.premium', 'billed.invoice_id'])
    .where('policies.client_id', '=', clientId), 'policies', id, 'Policy', options);

/** The mandate's row; the one-active-per-policy index is the last wall against a concurrent one. */
async function insertMandate(scope: TenantScope, policyNo: string, row: Omit<Insertable<DirectDebitsTable>, 'tenant_id'>): Promise<string> {
  try {
    return (await scope.insertInto('direct_debits', row).returning('id').executeTakeFirstOrThrow()).id;
  } catch (error) {
    if (violatedUniqueConstraint(error) === 'direct_debits_one_active') throw activeConflict(policyNo);
    throw error;
  }
}

/**
 * Cancels one of the client's ACTIVE mandates: no further debit is raised. The mandate's row is
 * locked, so the due-debit job (which takes it under the same lock) either raised today's debit
 * before or sees it cancelled. A staff `actor` is recorded as who cancelled it.
 */
export async function cancelMandate(ctx: MandateServices, clientId: string, id: string, body: DirectDebitCancel, actor: MandateActor): Promise<void> {
  const now = ctx.clock.now();
  await ctx.scope.transaction(async (scope) => {
    const debit = await ownDirectDebit(scope, id, clientId, { lock: true });
    if (debit.status !== 'ACTIVE') {
      throw conflict(`The direct debit on policy ${debit.policy_no} is ${debit.status}; only an ACTIVE one can be cancelled`, 'DIRECT_DEBIT_ENDED');
    }
    await cancelActiveMandate(ctx, scope, debit.id, body.reason, actor, now);
    await notifyClient(ctx, scope, clientId, {
      title: `Direct debit for policy ${debit.policy_no} cancelled`,
      body: `No more debits will be taken from ${debit.mobile_number}. Invoice ${debit.invoice_no} can still be paid in the app.`,
      entity: { name: 'directDebit', id: debit.id },
    });
  });
}

/** Sets up a mandate for a client within the caller's reach (404 otherwise), exactly as the client's own, set up by the caller; answers its id. */
export async function setUpMandateForClient(ctx: MandateServices, actor: StaffActor, clientId: string, body: DirectDebitCreate): Promise<string> {
  await reachableClient(ctx.scope, actor, clientId);
  return setUpMandate(ctx, clientId, body, { by: 'staff', id: actor.staffId });
}

/** The client of a mandate within the caller's reach, or 404 (out of reach as unknown). */
export async function mandateClientInReach(scope: TenantScope, actor: StaffActor, id: string): Promise<string> {
  const row = await scope.selectFrom('direct_debits').select('direct_debits.client_id').where('direct_debits.id', '=', id)
    .where(clientInReach('direct_debits.client_id', actor)).executeTakeFirst();
  if (!row) throw notFound('Direct debit');
  return row.client_id;
}

/** Cancels an ACTIVE mandate of a client within the caller's reach, exactly as the client's own cancellation, by the caller; answers the client's id. */
export async function cancelMandateForClient(ctx: MandateServices, actor: StaffActor, id: string, body: DirectDebitCancel): Promise<string> {
  const clientId = await mandateClientInReach(ctx.scope, actor, id);
  await cancelMandate(ctx, clientId, id, body, { by: 'staff', id: actor.staffId });
  return clientId;
}
