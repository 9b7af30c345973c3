import { differenceInYears, parseISO } from 'date-fns';
import type { components } from '../../../generated/api.js';
import type { ClientRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/tenancy.js';
import { CLIENT, isEmail, type PasswordAccount } from '../accounts/account.js';

export type ClientAccount = components['schemas']['ClientAccount'];

/** A person's names in order, or a company's name. */
export function clientFullName(row: Pick<ClientRow, 'type' | 'first_name' | 'other_names' | 'last_name' | 'company_name'>): string {
  return row.type === 'INDIVIDUAL'
    ? [row.first_name, row.other_names, row.last_name].filter(Boolean).join(' ')
    : row.company_name ?? '';
}

/** Row -> the account as the client sees it (never the password hash). */
export function toClientAccount(row: ClientRow, now: Date): ClientAccount {
  const born = row.type === 'INDIVIDUAL' ? row.date_of_birth : row.date_of_incorporation;
  const fullName = clientFullName(row);
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    type: row.type,
    email: row.email,
    phoneNumber: row.phone_number,
    emailVerified: row.email_verified_at !== null,
    phoneVerified: row.phone_verified_at !== null,
    country: row.country,
    city: row.city,
    region: row.region,
    digitalAddress: row.digital_address,
    address: row.address,
    industry: row.industry,
    notes: row.notes,
    groups: row.groups,
    profileImage: row.profile_image,
    taxpayerIdentificationNumber: row.taxpayer_identification_number,
    isActive: row.is_active,
    firstName: row.first_name,
    lastName: row.last_name,
    otherNames: row.other_names,
    title: row.title,
    gender: row.gender,
    dateOfBirth: row.date_of_birth,
    age: born ? differenceInYears(now, parseISO(born)) : null,
    identificationCard: row.identification_card as ClientAccount['identificationCard'],
    companyName: row.company_name,
    dateOfIncorporation: row.date_of_incorporation,
    contactPersons: row.contact_persons,
    fullName,
    createdBy: row.created_by_staff_id,
    originatingStaff: row.originating_staff_id,
  };
}

/** The live (not deleted) client whose email or phone number is `username`. */
export function findClientByUsername(scope: TenantScope, username: string) {
  const query = scope.selectFrom('clients').selectAll().where('deleted_at', 'is', null);
  return (isEmail(username)
    ? query.where((eb) => eb(eb.fn('lower', ['email']), '=', username.trim().toLowerCase()))
    : query.where('phone_number', '=', username.trim())
  ).executeTakeFirst();
}

/** Client accounts, as the password rules shared with staff see them (`server/domain/accounts/passwords.ts`). */
export const clientAccounts: PasswordAccount = {
  ...CLIENT,
  bucketPrefix: '',
  noun: 'account',
  resetCode: { table: 'password_reset_codes', owner: 'client_id', purpose: 'password-reset' },
  findByUsername: findClientByUsername,
};
