import type { HandlerContext } from '../../platform/context.js';
import { violatedUniqueConstraint } from '../../platform/db/errors.js';
import { badRequest, conflict } from '../../platform/errors.js';
import type { TenantScope } from '../../platform/tenancy.js';

/** Client rules JSON Schema cannot say, shared by signup and profile updates. */

export interface ClientFields {
  country?: string | null;
  dateOfBirth?: string | null;
  dateOfIncorporation?: string | null;
  identificationCard?: { issueDate: string; expiryDate?: string | null } | null;
}

/** A known country and dates that make sense (birth in the past, cards valid). */
export async function checkClientFields(ctx: Pick<HandlerContext, 'clock' | 'scope'>, fields: ClientFields) {
  const today = ctx.clock.now().toISOString().slice(0, 10);
  if (fields.country !== undefined && fields.country !== null) {
    // Through the caller's connection: inside a transaction, the transaction's (one-connection databases would wait on another).
    const country = await ctx.scope.db.selectFrom('countries').select('code').where('code', '=', fields.country).executeTakeFirst();
    if (!country) throw badRequest(`body.country '${fields.country}' is not a country code from GET /countries`);
  }
  if (fields.dateOfBirth && fields.dateOfBirth >= today) throw badRequest('body.dateOfBirth must be in the past');
  if (fields.dateOfIncorporation && fields.dateOfIncorporation > today) throw badRequest('body.dateOfIncorporation must not be in the future');
  const card = fields.identificationCard;
  if (card && card.issueDate > today) throw badRequest('body.identificationCard.issueDate must not be in the future');
  if (card?.expiryDate && card.expiryDate <= card.issueDate) throw badRequest('body.identificationCard.expiryDate must be after issueDate');
}

export const emailTaken = () => conflict('An account with this email already exists', 'EMAIL_TAKEN');
export const phoneTaken = () => conflict('An account with this phone number already exists', 'PHONE_NUMBER_TAKEN');

/** 409 if a live account of the tenant (other than `exceptId`) has this email or phone number. */
export async function checkContactFree(scope: TenantScope, contact: { email?: string | null; phoneNumber?: string | null }, exceptId?: string) {
  const live = () => scope.selectFrom('clients').select('id').where('deleted_at', 'is', null)
    .$if(exceptId !== undefined, (qb) => qb.where('id', '<>', exceptId!));
  if (contact.email && await live().where((eb) => eb(eb.fn('lower', ['email']), '=', contact.email!.toLowerCase())).executeTakeFirst()) {
    throw emailTaken();
  }
  if (contact.phoneNumber && await live().where('phone_number', '=', contact.phoneNumber).executeTakeFirst()) {
    throw phoneTaken();
  }
}

/** Two writers racing past checkContactFree: the unique index decides, and says which. */
export function contactConflict(error: unknown): never {
  const constraint = violatedUniqueConstraint(error);
  if (constraint === undefined) throw error;
  throw constraint.includes('phone') ? phoneTaken() : emailTaken();
}
