import type { components } from '../../../generated/api.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import type { HandlerContext } from '../../platform/context.js';
import type { ClientRow } from '../../platform/db/schema.js';
import { badRequest } from '../../platform/errors.js';
import type { StateActor } from '../states/policy.js';
import { notifyClient } from './notifications.js';
import { checkClientFields, checkContactFree, contactConflict } from './rules.js';

type SignUpRequest = components['schemas']['SignUpRequest'];
type WithoutPassword<B> = B extends unknown ? Omit<B, 'password'> & { password?: string } : never;

/** A new client's fields: a sign-up body, whose password staff opening the account may leave for the client to set. */
export type NewClient = WithoutPassword<SignUpRequest>;

/** Who opened an account (the client itself, or staff: its createdBy) and the staff member it is credited to, if any. */
export interface ClientOrigin {
  createdBy: StateActor;
  originatingStaffId?: string | null;
}

/** The clients row of a new client: every field as sent or null, JSON columns as JSON text. */
function newClientRow(fields: NewClient, passwordHash: string | null, origin: ClientOrigin) {
  const individual = fields.type === 'INDIVIDUAL' ? fields : undefined;
  const corporate = fields.type === 'CORPORATE' ? fields : undefined;
  return {
    type: fields.type,
    email: fields.email ?? null,
    phone_number: fields.phoneNumber ?? null,
    password_hash: passwordHash,
    country: fields.country,
    city: fields.city ?? null,
    region: fields.region ?? null,
    digital_address: fields.digitalAddress ?? null,
    address: fields.address ?? null,
    industry: fields.industry ?? null,
    notes: fields.notes ?? null,
    groups: JSON.stringify([...new Set(fields.groups)]),
    profile_image: fields.profileImage ?? null,
    taxpayer_identification_number: fields.taxpayerIdentificationNumber ?? null,
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
    created_by_staff_id: origin.createdBy.by === 'staff' ? origin.createdBy.id : null,
    originating_staff_id: origin.originatingStaffId ?? null,
  };
}

/**
 * Opens an individual or corporate client account: a login username (email or phone number) free
 * in the tenant, fields that make sense, and a welcome told to the client in the same transaction.
 */
export async function createClient(ctx: HandlerContext, fields: NewClient, origin: ClientOrigin): Promise<ClientRow> {
  if (!fields.email && !fields.phoneNumber) throw badRequest('body.email or body.phoneNumber is required (either is a login username)');
  await checkClientFields(ctx, fields);
  const passwordHash = fields.password === undefined ? null : await hashPassword(fields.password);

  return ctx.scope.transaction(async (scope) => {
    await checkContactFree(scope, fields);
    const row = await scope.insertInto('clients', newClientRow(fields, passwordHash, origin))
      .returningAll().executeTakeFirstOrThrow().catch(contactConflict);
    const name = fields.type === 'INDIVIDUAL' ? fields.firstName : fields.companyName;
    await notifyClient(ctx, scope, row, {
      title: `Welcome to ${ctx.tenant.name}`,
      body: `Hello ${name}, your ${ctx.tenant.name} account is ready.`,
      message: { template: 'welcome' },
    });
    return row;
  });
}
