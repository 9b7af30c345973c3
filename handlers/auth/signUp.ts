import { hashPassword } from '../../server/platform/auth/passwords.js';
import { ApiError, badRequest } from '../../server/platform/errors.js';
import { notifyClient } from '../../server/domain/clients/notifications.js';
import { checkClientFields, checkContactFree, contactConflict } from '../../server/domain/clients/rules.js';
import type { Handler } from '../types.js';
import { signedIn } from '../../server/domain/clients/session.js';

/** Creates an individual or corporate client and signs it in. */
export const signUp: Handler<'signUp'> = async (ctx, req) => {
  const body = req.body;
  if (!body.email && !body.phoneNumber) throw badRequest('body.email or body.phoneNumber is required (either is a login username)');
  await checkClientFields(ctx, body);
  const passwordHash = await hashPassword(body.password);
  const individual = body.type === 'INDIVIDUAL' ? body : undefined;
  const corporate = body.type === 'CORPORATE' ? body : undefined;

  const client = await ctx.scope.transaction(async (scope) => {
    await checkContactFree(scope, body);
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
    }).returningAll().executeTakeFirstOrThrow().catch(contactConflict);
    const name = individual ? individual.firstName : corporate!.companyName;
    await notifyClient(ctx, scope, row, {
      title: `Welcome to ${ctx.tenant.name}`,
      body: `Hello ${name}, your ${ctx.tenant.name} account is ready.`,
      message: { template: 'welcome' },
    });
    return row;
  });
  if (!client) throw new ApiError(500, 'INTERNAL_ERROR', 'Internal Server Error');
  return signedIn(ctx, client);
};
