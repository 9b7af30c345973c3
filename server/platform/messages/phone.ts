import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/**
 * A number as SMS providers take it (E.164, `+233244123456`). Accounts may keep a local number
 * (`0244123456`, as the contract allows): it is read in the sending company's country. A number
 * that cannot be read goes as it is, and the provider's refusal says why.
 */
export function internationalNumber(number: string, country?: string | null): string {
  if (number.startsWith('+')) return number;
  const parsed = parsePhoneNumberFromString(number, (country ?? undefined) as CountryCode | undefined);
  return parsed?.isValid() ? parsed.number : number;
}
