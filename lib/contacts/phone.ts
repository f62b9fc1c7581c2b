// Phone numbers of contacts (SPEC point 3): checked and normalised with libphonenumber-js.
import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';

/** SPEC point 3: the default phone country is US. */
export const DEFAULT_PHONE_COUNTRY = 'US';

export interface Phone {
  /** E.164, e.g. +12025550143 */
  phoneNumber: string;
  /** ISO 3166-1 alpha-2, or null for numbers of no country (e.g. +800) */
  countryCode: string | null;
  /** e.g. +1 */
  dialCode: string;
}

/** The number in E.164 with its country and dial code, or null when it is not a valid number. */
export function normalizePhone(number: string, country: string = DEFAULT_PHONE_COUNTRY): Phone | null {
  const parsed = parsePhoneNumberFromString(number, isSupportedCountry(country) ? country : DEFAULT_PHONE_COUNTRY);
  if (!parsed?.isValid()) return null;
  return { phoneNumber: parsed.number, countryCode: parsed.country ?? null, dialCode: `+${parsed.countryCallingCode}` };
}
