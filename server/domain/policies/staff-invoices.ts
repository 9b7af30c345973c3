import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/api.js';
import type { HandlerContext, StaffActor } from '../../platform/context.js';
import { ApiError, conflict } from '../../platform/errors.js';
import { todayOf } from '../../platform/clock.js';
import { notifyClient } from '../accounts/notify.js';
import { toCents } from '../money/billing.js';
import { loadStaffInvoice } from '../money/invoice-list.js';
import type { Invoice } from '../money/invoice-view.js';
import { policyForStaff } from './staff-sales.js';
import { invoiceDraft } from './update.js';

export type InvoiceCreate = components['schemas']['InvoiceCreate'];

/**
 * Raises the invoice of a draft policy of a client within the caller's reach (404 otherwise), as
 * moving the draft to PROCESSING does (`invoiceDraft`: the premium billed, the policy PROCESSING,
 * the caller recorded as who raised it), and tells the client; all in one transaction under the
 * policy's row lock. A policy past DRAFT has its invoice already (409); `amount`, when sent, must
 * be the premium billed (422).
 */
export async function raiseInvoiceForPolicy(ctx: HandlerContext, actor: StaffActor, body: InvoiceCreate): Promise<Invoice> {
  const now = ctx.clock.now();
  const invoiceId = await ctx.scope.transaction(async (scope) => {
    await policyForStaff(scope, actor, body.policyId); // 404 out of reach
    const policy = await scope.selectFrom('policies').select(['id', 'policy_no', 'state', 'client_id', 'currency', 'exchange_rate', 'premium'])
      .where('id', '=', body.policyId).forUpdate().executeTakeFirstOrThrow();
    if (policy.state !== 'DRAFT') {
      const billed = await scope.selectFrom('invoice_items').innerJoin('invoices', 'invoices.id', 'invoice_items.invoice_id')
        .select('invoices.invoice_no').where('invoice_items.policy_id', '=', policy.id).executeTakeFirst();
      throw conflict(`Policy ${policy.policy_no} is ${policy.state}: it has its invoice already${billed ? ` (${billed.invoice_no})` : ''}`, 'POLICY_INVOICED');
    }
    const premium = toCents(policy.premium);
    if (body.amount !== undefined && !new Decimal(body.amount).equals(premium)) {
      throw new ApiError(422, 'INVOICE_AMOUNT_MISMATCH',
        `body.amount must be ${premium.toFixed(2)} ${policy.currency}, the premium of policy ${policy.policy_no} (the invoice bills it)`);
    }
    const invoice = await invoiceDraft(ctx, scope, {
      clientId: policy.client_id, policy, premium, actor: { by: 'staff', id: actor.staffId }, today: todayOf(now), now,
      notes: 'Invoice raised by staff', description: body.description,
    });
    await notifyClient(ctx, scope, policy.client_id, {
      title: `Invoice ${invoice.invoice_no} raised`,
      body: `Policy ${policy.policy_no} is invoiced: ${policy.currency} ${premium.toFixed(2)} to pay to activate it (invoice ${invoice.invoice_no}).`,
      entity: { name: 'invoice', id: invoice.id },
    });
    return invoice.id;
  });
  return loadStaffInvoice(ctx.scope, actor, invoiceId);
}
