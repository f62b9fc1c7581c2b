import { formatPrice } from '@/lib/billing/pricing';
import type { Locale } from '@/lib/i18n/locales';

/** Stripe's minor units ("3495", "eur") as the person reads money: "34,95 €". */
export function money(cents: number, currency: string, locale: Locale): string {
  return formatPrice(cents / 100, currency.toUpperCase() === 'USD' ? 'USD' : 'EUR', locale);
}
