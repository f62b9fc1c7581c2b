// SPEC points 1 and 9: 34.95 EUR/USD per room per month (product_price in configuration). Visitors
// in North America and Canada see dollars, everyone else euros.
import { htmlLang, type Locale } from '@/lib/i18n/locales';
import type { Region } from '@/lib/location/region';

export type Currency = 'EUR' | 'USD';
/** How Stripe names the same currencies. */
export type StripeCurrency = 'eur' | 'usd';

export function currencyForRegion(region: Region): Currency {
  return region === 'na' || region === 'ca' ? 'USD' : 'EUR';
}

/** "34,95 €" in German, "$34.95" in English. */
export function formatPrice(amount: number, currency: Currency, locale: Locale): string {
  return new Intl.NumberFormat(htmlLang(locale), { style: 'currency', currency }).format(amount);
}
