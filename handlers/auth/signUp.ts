import { hashPassword } from '../../server/auth/passwords.js';
import { violatedUniqueConstraint } from '../../server/db/errors.js';
import { ApiError, badRequest, conflict } from '../../server/errors.js';
import type { HandlerContext } from '../../server/context.js';
import type { TenantScope } from '../../server/tenancy.js';
import type { Handler, HandlerRequest } from '../types.js';
import { signedIn } from './session.js';

type SignUpBody = HandlerRequest<'signUp'>['body'];

const emailTaken = () => conflict('An account with this email already exists', 'EMAIL_TAKEN');
const phoneTaken = () => conflict('An account with this phone number already exists', 'PHONE_NUMBER_TAKEN');

/** The rules JSON Schema cannot say: a known country and dates that make sense. */
async function checkRules(ctx: HandlerContext, body: SignUpBody) {
  if (!body.email && !body.phoneNumber) throw badRequest('body.email or body.phoneNumber is required (either is a login username)');
  const today = ctx.clock.now().toISOString().slice(0, 10);
  const country = await ctx.db.selectFrom('countries').select('code').where('code', '=', body.country).executeTakeFirst();
  if (!country) throw badRequest(`body.country '${body.country}' is not a country code from GET /countries`);
  if (body.type === 'INDIVIDUAL') {
    if (body.dateOfBirth && body.dateOfBirth >= today) throw badRequest('body.dateOfBirth must be in the past');
    const card = body.identificationCard;
    if (card && card.issueDate > today) throw badRequest('body.identificationCard.issueDate must not be in the future');
    if (card?.expiryDate && card.expiryDate <= card.issueDate) {
      throw badRequest('body.identificationCard.expiryDate must be after issueDate');
    }
  } else if (body.dateOfIncorporation && body.dateOfIncorporation > today) {
    throw badRequest('body.dateOfIncorporation must not be in the future');
  }
}

async function checkFree(scope: TenantScope, email?: string, phoneNumber?: string) {
  if (email) {
    const taken = await scope.selectFrom('clients').select('id').where('deleted_at', 'is', null)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase())).executeTakeFirst();
    if (taken) throw emailTaken();
  }
  if (phoneNumber) {
    const taken = await scope.selectFrom('clients').select('id').where('deleted_at', 'is', null)
      .where('phone_number', '=', phoneNumber).executeTakeFirst();
    if (taken) throw phoneTaken();
  }
}

/** Creates an individual or corporate client and signs it in. */
export const signUp: Handler<'signUp'> = async (ctx, req) => {
  const body = req.body;
  await checkRules(ctx, body);
  const passwordHash = await hashPassword(body.password);
  const individual = body.type === 'INDIVIDUAL' ? body : undefined;
  const corporate = body.type === 'CORPORATE' ? body : undefined;

  const client = await ctx.scope.transaction(async (scope) => {
    await checkFree(scope, body.email, body.phoneNumber);
    const row = await scope.insertInto('clients', {
      type: body.type,
      email: body.email ?? null,
      phone_number: body.phoneNumber ?? null,
      password_hash: passwordHash,
      country: body.country,
      city: body.city ?? null,
      region: body.region ?? null,
      digital_address: body.digitalAddress ?? null,
      address: body.address ?? null,
      industry: body.industry ?? null,
      notes: body.notes ?? null,
      groups: JSON.stringify([...new Set(body.groups)]),
      profile_image: body.profileImage ?? null,
      taxpayer_identification_number: body.taxpayerIdentificationNumber ?? null,
      first_name: individual?.firstName ?? null,
      last_name: individual?.lastName ?? null,
      other_names: individual?.otherNames ?? null,
      title: individual?.title ?? null,
      gender: individual?.gender ?? null,
      date_of_birth: individual?.dateOfBirth ?? null,
      identification_card: JSON.stringify(individual?.identificationCard ?? null),
      company_name: corporate?.companyName ?? null,
      date_of_incorporation: corporate?.dateOfIncorporation ?? null,
      contact_persons: JSON.stringify(corporate?.contactPersons ?? []),
      created_by_staff_id: null,
      originating_staff_id: null,
    }).returningAll().executeTakeFirstOrThrow().catch((error: unknown) => {
      // Two signups racing past checkFree: the unique index decides.
      const constraint = violatedUniqueConstraint(error);
      if (constraint === undefined) throw error;
      throw constraint.includes('phone') ? phoneTaken() : emailTaken();
    });
    const name = individual ? individual.firstName : corporate!.companyName;
    await ctx.notifier.send(scope, {
      ...(row.email ? { channel: 'email', recipient: row.email } : { channel: 'sms', recipient: row.phone_number! }),
      template: 'welcome',
      subject: `Welcome to ${ctx.tenant.name}`,
      body: `Hello ${name}, your ${ctx.tenant.name} account is ready.`,
    });
    return row;
  });
  if (!client) throw new ApiError(500, 'INTERNAL_ERROR', 'Internal Server Error');
  return signedIn(ctx, client);
};
