'use client';

import { useLocale, useTranslations } from 'next-intl';
import { Facts } from '@/components/billing/Facts';
import { longDate, money, planLabelKey } from '@/components/billing/money';
import type { Locale } from '@/lib/i18n/locales';
import { Link } from '@/lib/i18n/links';

export interface AccountSummaryData {
  /** null on a server without billing: no plan. */
  type: 'individual' | 'executive' | 'enterprise' | null;
  /** False on a server without billing: no plan, payment or trial rows (issue 35). */
  billingOn: boolean;
  isTrial: boolean;
  trialEndsAt: string | null;
  billingAmountCents: number;
  currency: string | null;
  roomsAvailable: number | null;
  /** null: no room limit (ON_PREMISE=true). */
  rooms: number | null;
  attendeesSaved: number;
  nextBillingDate: string | null;
  owner: { name: string; email: string };
}

/** SPEC point 3, "Account": type, billing amount, rooms available, attendees saved, dates, owner. */
export function AccountSummary({ account, onNavigate }: { account: AccountSummaryData; onNavigate: () => void }) {
  const t = useTranslations('AccountModal');
  const b = useTranslations('Billing');
  const locale = useLocale() as Locale;
  const date = (iso: string | null) => longDate(iso, locale);
  const rooms: [string, string] = [t('roomsAvailable'), account.roomsAvailable === null ? t('noLimit') : `${account.roomsAvailable} / ${account.rooms}`];
  const attendees: [string, string] = [t('attendeesSaved'), String(account.attendeesSaved)];
  const owner: [string, string] = [t('accountOwner'), `${account.owner.name} <${account.owner.email}>`];
  const rows: [string, string][] = account.billingOn
    ? [
        [t('accountType'), b(planLabelKey(account.isTrial, account.type ?? 'individual'))],
        [t('billingAmount'), account.currency && account.billingAmountCents ? money(account.billingAmountCents, account.currency, locale) : '—'],
        rooms,
        attendees,
        [t('nextBillingDate'), date(account.nextBillingDate)],
        [t('trialEnd'), date(account.trialEndsAt)],
        owner,
      ]
    : [rooms, attendees, owner];
  return (
    <section aria-labelledby="account-summary" className="flex flex-col gap-2">
      <h3 id="account-summary" className="font-semibold">
        {t('accountSection')}
      </h3>
      <Facts rows={rows} />
      {/* Without billing there is no plan to manage (issue 48): the limits are in the rows above. */}
      {account.billingOn && (
        <Link href="/settings#billing" className="self-start text-sm underline" onClick={onNavigate}>
          {t('managePlan')}
        </Link>
      )}
    </section>
  );
}
