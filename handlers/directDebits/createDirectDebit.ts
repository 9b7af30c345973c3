import { Decimal } from 'decimal.js';
import { violatedUniqueConstraint } from '../../server/platform/db/errors.js';
import { badRequest, conflict } from '../../server/platform/errors.js';
import { toCents } from '../../server/domain/money/billing.js';
import { DEBITABLE_STATES } from '../../server/domain/money/direct-debits.js';
import { paymentSums, remainingToPay } from '../../server/domain/money/figures.js';
import { expireCheckouts, lockInvoice } from '../../server/domain/money/payments.js';
import { notifyClient } from '../../server/domain/clients/notifications.js';
import { movePolicy } from '../../server/domain/states/policy.js';
import { clientId } from '../../server/platform/actor.js';
import { todayOf } from '../../server/domain/policies/rules.js';
import { ownPolicyRow } from '../../server/domain/policies/view.js';
import type { Handler } from '../types.js';
import { loadDirectDebit } from '../../server/domain/money/direct-debit-view.js';

const activeConflict = (policyNo: string) =>
  conflict(`Policy ${policyNo} already has an active direct debit; cancel it first`, 'DIRECT_DEBIT_ACTIVE');

/**
 * Sets up a direct debit mandate on one of the client's unpaid policies; the due-debit job raises
 * its payments. Locks are taken as payments take them (the invoice, then the policy), so two
 * mandates for one policy cannot both be active, and a payment settling the invoice meanwhile is
 * seen.
 */
export const createDirectDebit: Handler<'createDirectDebit'> = async (ctx, req) => {
  const owner = clientId(ctx);
  const body = req.body;
  const now = ctx.clock.now();
  const today = todayOf(now).date;
  if (body.startDate < today) throw badRequest(`body.startDate must not be in the past (today is ${today})`);
  if (body.endDate !== undefined && body.endDate < body.startDate) throw badRequest('body.endDate must be on or after body.startDate');

  const id = await ctx.scope.transaction(async (scope) => {
    const found = await ownPolicyRow(scope, body.policyId, owner);
    const invoice = found.invoice_id ? await lockInvoice(scope, found.invoice_id) : undefined;
    const policy = await ownPolicyRow(scope, body.policyId, owner, { lock: true });
    if (!DEBITABLE_STATES.includes(policy.state) || !invoice) {
      throw conflict(`Policy ${policy.policy_no} is ${policy.state}; a direct debit can be set up only while it is ${DEBITABLE_STATES.join(' or ')}`,
        'NOT_DEBITABLE');
    }
    if (body.startDate > policy.end_date) throw badRequest(`body.startDate must not be after the policy's endDate (${policy.end_date})`);
    const active = await scope.selectFrom('direct_debits').select('id').where('policy_id', '=', policy.id).where('status', '=', 'ACTIVE').executeTakeFirst();
    if (active) throw activeConflict(policy.policy_no);
    await expireCheckouts(scope, invoice.id, now);
    const remaining = remainingToPay(invoice.amount, (await paymentSums(scope, [invoice.id])).get(invoice.id)!);
    if (remaining.lessThanOrEqualTo(0)) {
      throw conflict(`Invoice ${invoice.invoice_no} has nothing left to pay (${new Decimal(invoice.amount).toFixed(2)} ${invoice.currency} paid or being paid)`,
        'INVOICE_SETTLED');
    }
    const client = await scope.selectFrom('clients').select(['id', 'email', 'phone_number']).where('id', '=', owner).executeTakeFirstOrThrow();
    const mobileNumber = body.mobileNumber ?? client.phone_number;
    if (!mobileNumber) throw badRequest('body.mobileNumber is required: the account has no phone number to debit');
    const amount = toCents(body.amount ? body.amount : policy.premium);
    if (amount.lessThanOrEqualTo(0)) throw badRequest('body.amount is required: the policy has no premium to debit');

    let mandate: { id: string };
    try {
      mandate = await scope.insertInto('direct_debits', {
        policy_id: policy.id,
        invoice_id: invoice.id,
        client_id: owner,
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
      }).returning('id').executeTakeFirstOrThrow();
    } catch (error) {
      if (violatedUniqueConstraint(error) === 'direct_debits_one_active') throw activeConflict(policy.policy_no);
      throw error;
    }
    if (policy.state === 'PROCESSING') {
      await movePolicy(scope, { id: policy.id, policyNo: policy.policy_no, state: policy.state }, 'AWAITING_DEBIT', { by: 'system', id: null }, now,
        'Direct debit set up');
    }
    const every = body.frequency.toLowerCase().replace('_', '-');
    await notifyClient(ctx, scope, client, {
      title: `Direct debit for policy ${policy.policy_no} set up`,
      body: `${invoice.currency} ${amount.toFixed(2)} will be debited ${every} from ${mobileNumber}, from ${body.startDate}`
        + `${body.endDate ? ` until ${body.endDate}` : ''}, until invoice ${invoice.invoice_no} is paid. Approve each prompt on your phone.`,
      entity: { name: 'directDebit', id: mandate.id },
    });
    return mandate.id;
  });
  return { data: await loadDirectDebit(ctx.scope, id, owner) };
};
