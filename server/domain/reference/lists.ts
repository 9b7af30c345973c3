import type { components, operations } from '../../../generated/api.js';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/filters.js';
import { pageOf } from '../../platform/pagination.js';

/**
 * The platform-wide reference lists (not tenant-owned rows): insurers, the company directory,
 * countries, currencies and vehicles, filtered as their list operations ask. Each query selects
 * only the columns its answer shows, so nothing internal (a database, a Firebase project, an SMS
 * sender id) can reach a response by accident.
 */

type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;
type InsurerType = components['schemas']['InsurerType'];

export const insurerColumns = ['id', 'name', 'email', 'subdomain', 'address', 'kind', 'type', 'primary_color', 'country', 'logo_url'] as const;
export const companyColumns = [
  'id', 'name', 'email', 'type', 'kind', 'short_name', 'description', 'primary_color', 'subdomain', 'logo_url', 'country',
] as const;
export const countryColumns = ['code', 'name', 'phone', 'currency', 'flag'] as const;

// The company types that underwrite risk; `satisfies` fails tsc if the contract's enum changes.
const insurerTypes = Object.keys({ INSURER: true, MICRO_INSURER: true } satisfies Record<InsurerType, true>) as InsurerType[];

/** Insurers and micro-insurers on the platform (or one type of them), by name. */
export function insurers(db: Db, { type, name, email, country }: Query<'listInsurers'>) {
  return db.selectFrom('companies')
    .select(insurerColumns)
    .where('type', 'in', type ? [type] : insurerTypes)
    .$if(name !== undefined, (qb) => qb.where('name', 'ilike', containsPattern(name!)))
    .$if(email !== undefined, (qb) => qb.where((eb) => eb(eb.fn('lower', ['email']), '=', email!.toLowerCase())))
    .$if(country !== undefined, (qb) => qb.where('country', '=', country!))
    .orderBy('name')
    .orderBy('id')
    .$narrowType<{ type: InsurerType }>()
    .execute();
}

/** One page of the company directory, by name. */
export async function companyPage(db: Db, query: Query<'listCompanies'>) {
  const { name, type, email } = query;
  // The contract gives page and limit defaults, which request validation fills in.
  const page = query.page!;
  const limit = query.limit!;
  const filtered = db.selectFrom('companies')
    .$if(name !== undefined, (qb) => qb.where('name', 'ilike', containsPattern(name!)))
    .$if(type !== undefined, (qb) => qb.where('type', '=', type!))
    .$if(email !== undefined, (qb) => qb.where((eb) => eb(eb.fn('lower', ['email']), '=', email!.toLowerCase())));
  const { offset, paginator } = await pageOf(filtered, page, limit);
  const rows = await filtered.select(companyColumns).orderBy('name').orderBy('id').limit(limit).offset(offset).execute();
  return { rows, paginator };
}

/** Countries by name; their state provinces only with include=stateProvinces (the lists are large). */
export function countries(db: Db, { include, name, countryCode }: Query<'listCountries'>) {
  return db.selectFrom('countries')
    .select(countryColumns)
    .$if(include === 'stateProvinces', (qb) => qb.select('state_provinces'))
    .$if(name !== undefined, (qb) => qb.where('name', 'ilike', containsPattern(name!)))
    .$if(countryCode !== undefined, (qb) => qb.where('code', '=', countryCode!))
    .orderBy('name')
    .orderBy('code')
    .execute();
}

/** Currencies: the default one first (what a picker preselects), then by ISO code. */
export function currencies(db: Db, { status, code }: Query<'listCurrencies'>) {
  return db.selectFrom('currencies')
    .selectAll()
    .$if(status !== undefined, (qb) => qb.where('status', '=', status!))
    .$if(code !== undefined, (qb) => qb.where('code', '=', code!))
    .orderBy('is_default', 'desc')
    .orderBy('code')
    .execute();
}

/** Vehicle makes with their models, by name. */
export function vehicleMakes(db: Db, { name }: Query<'listVehicles'>) {
  return db.selectFrom('vehicle_makes')
    .selectAll()
    .$if(name !== undefined, (qb) => qb.where('name', 'ilike', containsPattern(name!)))
    .orderBy('name')
    .execute();
}

/** Vehicle body types, by name. */
export const vehicleBodyTypes = (db: Db) => db.selectFrom('vehicle_body_types').selectAll().orderBy('name').orderBy('code').execute();

/** Vehicle schedule (risk) types with their usage, by name. */
export const vehicleScheduleTypes = (db: Db) => db.selectFrom('vehicle_schedule_types').selectAll().orderBy('name').orderBy('code').execute();
