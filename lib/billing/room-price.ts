import 'server-only';
import { headers } from 'next/headers';
import { getPublicConfiguration } from '@/lib/configuration/configuration';
import type { Locale } from '@/lib/i18n/locales';
import { countryFromHeaders, regionForCountry } from '@/lib/location/region';
import { currencyForRegion, formatPrice, type Currency, type StripeCurrency } from './pricing';

/** The monthly price of one room, from configuration, in the visitor's currency and language. */
export async function roomPriceLabel(locale: Locale, preferredRegion?: string | null): Promise<string> {
  const [{ product_price }, requestHeaders] = await Promise.all([getPublicConfiguration(), headers()]);
  return formatPrice(product_price, currencyFor(requestHeaders, preferredRegion), locale);
}

/**
 * A CDN's country header, else the browser's language region (en-US → dollars), else the user's
 * preferred region; euros when nothing says otherwise.
 */
export function currencyFor(requestHeaders: Headers, preferredRegion?: string | null): Currency {
  const country = countryFromHeaders(requestHeaders) ?? languageCountry(requestHeaders.get('accept-language'));
  const region = country ? regionForCountry(country) : preferredRegion === 'na' ? 'na' : 'eu';
  return currencyForRegion(region);
}

/** The same, in Stripe's lower-case form. */
export function stripeCurrencyFor(requestHeaders: Headers, preferredRegion?: string | null): StripeCurrency {
  return currencyFor(requestHeaders, preferredRegion) === 'USD' ? 'usd' : 'eur';
}

/** The region subtag of the browser's first language ("en-US,en;q=0.9" → "US"), if any. */
function languageCountry(acceptLanguage: string | null): string | null {
  const match = /^[a-z]{2,3}-([a-z]{2})\b/i.exec(acceptLanguage?.split(',')[0]?.trim() ?? '');
  return match ? match[1]!.toUpperCase() : null;
}
