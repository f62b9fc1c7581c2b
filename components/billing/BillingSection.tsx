import { headers } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { stripeCurrencyFor } from '@/lib/billing/room-price';
import { billingOf } from '@/lib/billing/summary';
import { getPublicConfiguration } from '@/lib/configuration/configuration';
import type { User } from '@/lib/db/schema';
import type { Locale } from '@/lib/i18n/locales';
import { BillingPanel } from './BillingPanel';
import { Facts } from './Facts';
import { longDate, money, planLabelKey } from './money';

/**
 * The billing screen of SPEC point 2 ("billing / checkout and upgrade"), a section of /settings:
 * the billing object of point 3 and, when Stripe is configured, subscribing or changing the plan.
 */
export async function BillingSection({ user, locale }: { user: User; locale: Locale }) {
  const t = await getTranslations('Billing');
  const billing = await billingOf(user);
  const date = (iso: string | null) => longDate(iso, locale);
  const { product_price } = await getPublicConfiguration();
  const currency = billing.currency ?? stripeCurrencyFor(await headers(), user.preferredRegion);
  const unitAmountCents = billing.subscribed ? (billing.unitAmountCents ?? 0) : Math.round(product_price * 100);

  // A server without billing (issue 35) has no trial and no plans: it shows the user's limits.
  const off = !billing.billingOn;
  const rows: [string, string][] = off
    ? [
        [t('roomsCount'), billing.rooms === null ? (await getTranslations('AccountModal'))('noLimit') : String(billing.rooms)],
        [t('participantsCount'), String(billing.participants)],
      ]
    : [
        [t('plan'), t(planLabelKey(billing.isTrial, billing.plan))],
        [
          t('roomsCount'),
          billing.nextRooms ? `${billing.rooms} · ${t('nextRooms', { rooms: billing.nextRooms, date: date(billing.nextBillingDate) })}` : String(billing.rooms),
        ],
      ];
  if (billing.subscribed && !off) {
    rows.push(
      [t('monthlyPayment'), money(billing.monthlyPaymentCents, currency, locale)],
      [t('nextBillingDate'), date(billing.nextBillingDate)],
      [t('cardName'), billing.cardName ?? '—'],
      [t('card'), billing.cardLast4 ? `•••• ${billing.cardLast4}` : '—'],
    );
  }
  if (billing.chargeAmountCents !== null) rows.push([t('chargeAmount'), money(billing.chargeAmountCents, currency, locale)]);
  if (billing.transactionId) rows.push([t('transactionId'), billing.transactionId]);
  if (billing.isTrial && !off) rows.push([t('trialEnd'), date(billing.trialEndsAt)]);

  return (
    <section id="billing" aria-labelledby="billing-title" className="mt-10 scroll-mt-20 rounded-lg border border-slate-200 bg-white p-6">
      <h2 id="billing-title" className="mb-4 text-xl font-semibold">
        {t('sectionTitle')}
      </h2>
      {billing.isTrial && !off && (
        <p className="mb-4 rounded-md bg-amber-50 px-4 py-3 text-amber-900">
          {billing.trialEnded ? t('trialEndedNotice') : t('trialEndsIn', { days: billing.trialDaysLeft })}
        </p>
      )}
      {off && (
        <p role="note" className="mb-4 rounded-md bg-slate-50 px-4 py-3">
          {t('off')}
        </p>
      )}
      <Facts rows={rows} className="mb-6" />
      {off ? null : !billing.configured ? (
        <p role="note" className="rounded-md bg-slate-50 px-4 py-3">
          {t('notConfigured')}
        </p>
      ) : user.state !== 'active' ? null : (
        <BillingPanel
          subscribed={billing.subscribed}
          unitAmountCents={unitAmountCents}
          currency={currency}
          plan={
            billing.subscribed
              ? { rooms: billing.rooms ?? 0, billedRooms: billing.billedRooms, unitAmountCents, currency, nextBillingDate: billing.nextBillingDate }
              : null
          }
        />
      )}
      {billing.history.length > 0 && (
        <>
          <h3 className="mt-8 mb-2 font-semibold">{t('history')}</h3>
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="text-slate-600">
                <th scope="col" className="py-1 pr-4 font-medium">
                  {t('date')}
                </th>
                <th scope="col" className="py-1 pr-4 font-medium">
                  {t('roomsCount')}
                </th>
                <th scope="col" className="py-1 pr-4 font-medium">
                  {t('chargeAmount')}
                </th>
                <th scope="col" className="py-1 font-medium">
                  {t('transactionId')}
                </th>
              </tr>
            </thead>
            <tbody>
              {billing.history.map((row) => (
                <tr key={row.transactionId ?? row.createdAt} className="border-t border-slate-100">
                  <td className="py-1 pr-4">{date(row.createdAt)}</td>
                  <td className="py-1 pr-4">{row.rooms}</td>
                  <td className="py-1 pr-4">{money(row.amountCents, row.currency, locale)}</td>
                  <td className="py-1 font-mono text-xs break-all">{row.transactionId}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
