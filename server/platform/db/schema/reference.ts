import type { Generated } from 'kysely';
import type { CreatedAt, Json, Schemas, Timestamp } from './columns.js';

/** Platform-wide reference lists: countries, currencies, vehicles. */

export interface StateProvinceRow { name: string; code: string }

export interface CountriesTable {
  code: string;
  name: string;
  phone: string;
  currency: string | null;
  flag: string | null;
  state_provinces: Json<StateProvinceRow[]>;
}

export interface CurrenciesTable {
  id: Generated<string>;
  code: string;
  name: string;
  symbol: string;
  locale: string;
  flag: string | null;
  country: string | null;
  is_default: Generated<boolean>;
  status: Generated<Schemas['CurrencyStatus']>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface VehicleMakesTable { id: Generated<string>; name: string; models: Json<string[]> }

export interface VehicleBodyTypesTable { id: Generated<string>; code: string; name: string; description: string | null }

export interface VehicleScheduleTypesTable {
  id: Generated<string>;
  code: string;
  name: string;
  description: string | null;
  usage: 'PRIVATE' | 'COMMERCIAL' | 'MOTOR_CYCLE';
}
