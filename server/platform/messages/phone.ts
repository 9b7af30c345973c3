import { createRequire } from 'node:module';
import { parsePhoneNumberFromString, type CountryCode, type MetadataJson } from 'libphonenumber-js/core';

// The metadata is JSON: loaded by require, which reads JSON on every loader (ESM's import needs an attribute).
const metadata = createRequire(import.meta.url)('libphonenumber-js/metadata.min.json') as MetadataJson;

/**
 * A number as SMS providers take it (E.164, `+233244123456`). Accounts may keep a local number
 * (`0244123456`, as the contract allows): it is read in the sending company's country. A number
 * that cannot be read goes as it is, and the provider's refusal says why.
 */
export function internationalNumber(number: string, country?: string | null): string {
  if (number.startsWith('+')) return number;
  const parsed = parsePhoneNumberFromString(number, { defaultCountry: (country ?? undefined) as CountryCode | undefined }, metadata);
  return parsed?.isValid() ? parsed.number : number;
}
