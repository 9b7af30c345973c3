import type { Selectable } from 'kysely';
import type { components } from '../../generated/api.js';
import type { CompanyRow, Database } from '../../server/platform/db/schema.js';
import type { companyColumns, countryColumns, insurerColumns } from '../../server/domain/reference/lists.js';

/** Rows of the platform-wide lookup tables -> the API objects the contract defines. */

type Schemas = components['schemas'];

// Each mapper reads exactly the columns its query selects (server/domain/reference/lists.ts).

type InsurerSource = Pick<CompanyRow, (typeof insurerColumns)[number]> & { type: Schemas['InsurerType'] };

/** A company row that is an insurer -> Insurer. */
export function insurerFromRow(row: InsurerSource): Schemas['Insurer'] {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    subdomain: row.subdomain,
    address: row.address,
    kind: row.kind,
    type: row.type,
    primaryColor: row.primary_color,
    country: row.country,
    logo: row.logo_url,
  };
}

type CompanySource = Pick<CompanyRow, (typeof companyColumns)[number]>;

/** A company row -> Company (the public directory entry). */
export function companyFromRow(row: CompanySource): Schemas['Company'] {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    type: row.type,
    kind: row.kind,
    shortName: row.short_name,
    description: row.description,
    primaryColor: row.primary_color,
    subdomain: row.subdomain,
    logo: row.logo_url,
    country: row.country,
  };
}

type CountryRow = Selectable<Database['countries']>;
type CountrySource = Pick<CountryRow, (typeof countryColumns)[number]> & Partial<Pick<CountryRow, 'state_provinces'>>;

/** A country row -> Country; `stateProvinces` only when the row carries them (include=stateProvinces). */
export function countryFromRow(row: CountrySource): Schemas['Country'] {
  const country: Schemas['Country'] = {
    name: row.name,
    countryCode: row.code,
    phone: row.phone,
    currency: row.currency,
    flag: row.flag,
  };
  if (row.state_provinces) {
    country.stateProvinces = [...row.state_provinces]
      .sort((a, b) => a.name.localeCompare(b.name, 'en'))
      .map((state) => ({ name: state.name, code: state.code }));
  }
  return country;
}

/** A currency row -> Currency. */
export function currencyFromRow(row: Selectable<Database['currencies']>): Schemas['Currency'] {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    isDefault: row.is_default,
    status: row.status,
    flag: row.flag,
    country: row.country,
    name: row.name,
    code: row.code,
    symbol: row.symbol,
    locale: row.locale,
  };
}

/** A vehicle make row -> Vehicle. */
export function vehicleFromRow(row: Selectable<Database['vehicle_makes']>): Schemas['Vehicle'] {
  return { id: row.id, name: row.name, models: [...row.models] };
}

/** A vehicle body type row -> VehicleBodyType. */
export function vehicleBodyTypeFromRow(row: Selectable<Database['vehicle_body_types']>): Schemas['VehicleBodyType'] {
  return { id: row.id, code: row.code, name: row.name, description: row.description };
}

/** A vehicle schedule type row -> VehicleScheduleType. */
export function vehicleScheduleTypeFromRow(row: Selectable<Database['vehicle_schedule_types']>): Schemas['VehicleScheduleType'] {
  return { id: row.id, code: row.code, name: row.name, description: row.description, usage: row.usage };
}
