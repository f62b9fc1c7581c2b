'use client';

import { useLocale, useTranslations } from 'next-intl';
import { money } from '@/components/billing/money';
import type { Locale } from '@/lib/i18n/locales';
import { Link } from '@/lib/i18n/navigation';

export interface AccountSummaryData {
  type: 'individual' | 'executive' | 'enterprise';
  isTrial: boolean;
  trialEndsAt: string | null;
  billingAmountCents: number;
  currency: string | null;
  roomsAvailable: number | null;
  rooms: number;
  attendeesSaved: number;
  nextBillingDate: string | null;
  owner: { name: string; email: string };
}

const planKey = { individual: 'planIndividual', executive: 'planExecutive', enterprise: 'planEnterprise' } as const;

/** SPEC point 3, "Account": type, billing amount, rooms available, attendees saved, dates, owner. */
export function AccountSummary({ account, onNavigate }: { account: AccountSummaryData; onNavigate: () => void }) {
  const t = useTranslations('AccountModal');
  const b = useTranslations('Billing');
  const locale = useLocale() as Locale;
  const date = (iso: string | null) => (iso ? new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(new Date(iso)) : '—');
  const rows: [string, string][] = [
    [t('accountType'), account.isTrial ? b('planTrial') : b(planKey[account.type])],
    [t('billingAmount'), account.currency && account.billingAmountCents ? money(account.billingAmountCents, account.currency, locale) : '—'],
    [t('roomsAvailable'), account.roomsAvailable === null ? t('noLimit') : `${account.roomsAvailable} / ${account.rooms}`],
    [t('attendeesSaved'), String(account.attendeesSaved)],
    [t('nextBillingDate'), date(account.nextBillingDate)],
    [t('trialEnd'), date(account.trialEndsAt)],
    [t('accountOwner'), `${account.owner.name} <${account.owner.email}>`],
  ];
  return (
    <section aria-labelledby="account-summary" className="flex flex-col gap-2">
      <h3 id="account-summary" className="font-semibold">
        {t('accountSection')}
      </h3>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600">{label}</dt>
            <dd className="break-all">{value}</dd>
          </div>
        ))}
      </dl>
      <Link href="/settings#billing" className="self-start text-sm underline" onClick={onNavigate}>
        {t('managePlan')}
      </Link>
    </section>
  );
}
