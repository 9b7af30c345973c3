import { createRequire } from 'node:module';
import { Country, State } from 'country-state-city';
import currencyCodes from 'currency-codes';

const require = createRequire(import.meta.url);

/** Reference rows built from data packages (countries, currencies) and checked-in files (vehicles). */

export const DEFAULT_CURRENCY = 'GHS';

// Currencies shared by several countries, with no country code in their own code: who issues them.
const SHARED_CURRENCY_HOME: Record<string, string> = { EUR: 'DE', XOF: 'SN', XAF: 'CM', XCD: 'AG', XPF: 'PF', ANG: 'CW' };

export function countryRows() {
  return Country.getAllCountries().map((country) => ({
    code: country.isoCode,
    name: country.name,
    phone: country.phonecode.startsWith('+') ? country.phonecode : `+${country.phonecode}`,
    currency: country.currency || null,
    flag: country.flag || null,
    state_provinces: JSON.stringify(
      State.getStatesOfCountry(country.isoCode).map((state) => ({ name: state.name, code: state.isoCode })),
    ),
  }));
}

export function currencyRows() {
  const countries = Country.getAllCountries();
  const names = new Intl.DisplayNames(['en'], { type: 'currency' });
  const rows = [];
  for (const code of new Set(countries.map((c) => c.currency).filter(Boolean))) {
    const iso = currencyCodes.code(code);
    if (!iso) continue; // not an ISO 4217 currency any more
    const users = countries.filter((c) => c.currency === code);
    // The issuing country is the one whose code leads the currency code (GH for GHS, US for USD).
    const home = users.find((c) => c.isoCode === SHARED_CURRENCY_HOME[code])
      ?? users.find((c) => code.startsWith(c.isoCode)) ?? users[0];
    const locale = `en-${home.isoCode}`;
    const symbol = new Intl.NumberFormat(locale, { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? code;
    rows.push({
      code,
      name: names.of(code) ?? iso.currency,
      symbol,
      locale,
      flag: home.flag || null,
      country: home.name,
      is_default: code === DEFAULT_CURRENCY,
    });
  }
  return rows.sort((a, b) => a.code.localeCompare(b.code));
}

export function vehicleMakeRows() {
  const makes: { name: string; models: string[] }[] = require('./data/vehicle-makes.json');
  return makes.map((make) => ({ name: make.name, models: JSON.stringify(make.models) }));
}

export function vehicleBodyTypeRows(): { code: string; name: string; description: string }[] {
  return require('./data/vehicle-body-types.json');
}

export function vehicleScheduleTypeRows(): { code: string; name: string; description: string; usage: 'PRIVATE' | 'COMMERCIAL' | 'MOTOR_CYCLE' }[] {
  return require('./data/vehicle-schedule-types.json');
}
