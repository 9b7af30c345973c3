import type { components } from '../../../generated/api.js';
import type { ClientUpdate } from '../../platform/db/schema.js';
import { badRequest } from '../../platform/errors.js';

/**
 * The one mapping from a client's fields as the API sends them to the clients table's columns,
 * shared by signup and staff opening an account (every field, missing ones null) and by the
 * client's own and staff's profile updates (the fields sent only). JSON columns take JSON text.
 */

type Schemas = components['schemas'];
/** Any of the fields a client body may carry that are columns (signup, staff create, both updates); `null` clears one. */
type Loose<T> = { [K in keyof T]?: T[K] | null };
export type ClientFieldValues = Loose<Omit<Schemas['ClientFields'], 'password'>> & Loose<Omit<Schemas['IndividualClientFields'], 'type'>>
  & Loose<Omit<Schemas['CorporateClientFields'], 'type'>> & Loose<Schemas['ClientProfileUpdateFields']>;
type Field = keyof ClientFieldValues;

const json = (value: unknown) => JSON.stringify(value ?? null);

const COLUMNS: { [K in Field]-?: (value: any) => ClientUpdate } = {
  type: (v) => ({ type: v }),
  email: (v) => ({ email: v }),
  phoneNumber: (v) => ({ phone_number: v }),
  country: (v) => ({ country: v }),
  city: (v) => ({ city: v }),
  region: (v) => ({ region: v }),
  digitalAddress: (v) => ({ digital_address: v }),
  address: (v) => ({ address: v }),
  industry: (v) => ({ industry: v }),
  notes: (v) => ({ notes: v }),
  // Repeats are kept once.
  groups: (v) => ({ groups: JSON.stringify([...new Set((v ?? []) as string[])]) }),
  profileImage: (v) => ({ profile_image: v }),
  taxpayerIdentificationNumber: (v) => ({ taxpayer_identification_number: v }),
  firstName: (v) => ({ first_name: v }),
  lastName: (v) => ({ last_name: v }),
  otherNames: (v) => ({ other_names: v }),
  title: (v) => ({ title: v }),
  gender: (v) => ({ gender: v }),
  dateOfBirth: (v) => ({ date_of_birth: v }),
  identificationCard: (v) => ({ identification_card: json(v) }),
  companyName: (v) => ({ company_name: v }),
  dateOfIncorporation: (v) => ({ date_of_incorporation: v }),
  contactPersons: (v) => ({ contact_persons: JSON.stringify(v ?? []) }),
};

const FIELDS = Object.keys(COLUMNS) as Field[];

/** The columns for the fields present in `fields` (`null` clears one); keys that are not client fields are refused. */
export function clientColumns(fields: ClientFieldValues): ClientUpdate {
  return Object.assign({}, ...Object.entries(fields).filter(([, value]) => value !== undefined).map(([key, value]) => {
    const column = COLUMNS[key as Field];
    if (!column) throw new Error(`${key} is not a client field`);
    return column(value);
  }));
}

/** Every field's column, those not in `fields` null (a new client's row). */
export function allClientColumns(fields: ClientFieldValues): ClientUpdate {
  const blank = Object.fromEntries(FIELDS.map((field) => [field, null]));
  return clientColumns({ ...blank, ...fields });
}

const INDIVIDUAL_ONLY = ['firstName', 'lastName', 'otherNames', 'title', 'gender', 'dateOfBirth', 'identificationCard'] as const;
const CORPORATE_ONLY = ['companyName', 'dateOfIncorporation', 'contactPersons'] as const;

/** 400 naming a field sent that does not apply to a client of this type (a person's fields on a company ...). */
export function checkFieldsApply(type: 'INDIVIDUAL' | 'CORPORATE', fields: object) {
  const foreign = type === 'INDIVIDUAL' ? CORPORATE_ONLY : INDIVIDUAL_ONLY;
  const misplaced = foreign.find((field) => field in fields);
  if (misplaced) throw badRequest(`body.${misplaced} applies to ${type === 'INDIVIDUAL' ? 'CORPORATE' : 'INDIVIDUAL'} clients only`);
}
