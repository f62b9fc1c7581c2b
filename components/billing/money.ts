import { formatPrice } from '@/lib/billing/pricing';
import type { Locale } from '@/lib/i18n/locales';

/** Stripe's minor units ("3495", "eur") as the person reads money: "34,95 €". */
export function money(cents: number, currency: string, locale: Locale): string {
  return formatPrice(cents / 100, currency.toUpperCase() === 'USD' ? 'USD' : 'EUR', locale);
}

/** A billing date as the person reads it ("25 November 2026"), or a dash when there is none. */
export function longDate(iso: string | null, locale: Locale): string {
  return iso ? new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(new Date(iso)) : '—';
}

/** The Billing message that names an account's plan. */
export function planLabelKey(isTrial: boolean, plan: 'individual' | 'executive' | 'enterprise') {
  if (isTrial) return 'planTrial' as const;
  return ({ individual: 'planIndividual', executive: 'planExecutive', enterprise: 'planEnterprise' } as const)[plan];
}
