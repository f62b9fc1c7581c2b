'use client';

import { useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { apiGet, apiPost } from '@/lib/api/browser';
import type { Locale } from '@/lib/i18n/locales';
import { CardForm, type CardDetails } from './CardForm';
import { longDate, money } from './money';
import { PaymentProblem, problemFromAnswer, problemFromStripe, StripeUnavailable, type Problem } from './PaymentProblem';
import { RoomsInput } from './RoomsInput';
import { useStripeLoader } from './useStripeLoader';

export interface PlanState {
  rooms: number;
  billedRooms: number;
  unitAmountCents: number;
  currency: string;
  nextBillingDate: string | null;
}

/**
 * For a paying account: change the number of rooms (more now, pro rata; fewer from the next
 * billing date, SPEC point 4) and replace the card.
 */
export function ChangePlan({ plan, onDone, onStart }: { plan: PlanState; onDone: (message: string) => void; onStart: () => void }) {
  const t = useTranslations('Billing');
  const locale = useLocale() as Locale;
  const [rooms, setRooms] = useState(plan.rooms);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [changingCard, setChangingCard] = useState(false);
  const stripe = useStripeLoader();
  const date = longDate(plan.nextBillingDate, locale);
  // Compared with what Stripe bills: above it costs now (or takes back a waiting reduction),
  // below it is a reduction from the next billing date.
  const more = rooms > plan.billedRooms;
  const fewer = rooms < plan.billedRooms;

  async function apply(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    onStart();
    try {
      if (fewer) {
        const answer = await apiPost('/billing/downgrade', { rooms });
        if (answer.status !== 'ok') return setProblem(problemFromAnswer(answer));
        return onDone(t('downgradeDone', { rooms, date }));
      }
      const answer = await apiPost('/billing/upgrade/setup', { rooms });
      if (answer.status !== 'ok') return setProblem(problemFromAnswer(answer));
      if (answer.state === 'requires_action') {
        // The bank wants the person to confirm (3-D Secure): Stripe.js shows its own dialog.
        const client = await stripe.load();
        if (!client) return;
        const result = await client.confirmCardPayment(answer.clientSecret as string);
        if (result.error) return setProblem(problemFromStripe(result.error));
        const finish = await apiPost('/billing/upgrade/finish', { paymentIntent: result.paymentIntent.id });
        if (finish.status !== 'ok') return setProblem(problemFromAnswer(finish));
      }
      onDone(t('upgradeDone', { rooms }));
    } finally {
      setBusy(false);
    }
  }

  async function saveCard({ stripe: client, card, name }: CardDetails) {
    setBusy(true);
    setProblem(null);
    onStart();
    try {
      const secret = await apiGet<{ clientSecret: string }>('/billing/upgrade/secret');
      if (Array.isArray(secret)) return setProblem({ code: 'error_setting_up_payment' });
      const result = await client.confirmCardSetup(secret.clientSecret, { payment_method: { card, billing_details: { name } } });
      if (result.error) return setProblem(problemFromStripe(result.error));
      const answer = await apiPost('/billing/payment', { setupIntent: result.setupIntent.id });
      if (answer.status !== 'ok') return setProblem(problemFromAnswer(answer));
      setChangingCard(false);
      onDone(t('cardSaved'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={(event) => void apply(event)} className="flex flex-col gap-3">
        <h3 className="font-semibold">{t('changeRooms')}</h3>
        <RoomsInput value={rooms} onChange={setRooms} />
        <p className="text-sm text-slate-600" aria-live="polite">
          {t('priceLine', {
            rooms,
            price: money(plan.unitAmountCents, plan.currency, locale),
            total: money(rooms * plan.unitAmountCents, plan.currency, locale),
          })}
          {' · '}
          {more ? t('upgradeNote', { date }) : fewer ? t('downgradeNote', { date }) : t('noChange')}
        </p>
        <button type="submit" className="button-primary self-start" disabled={busy || (!more && !fewer)}>
          {t('applyChange')}
        </button>
      </form>

      <div className="flex flex-col gap-3">
        {!changingCard ? (
          <button
            type="button"
            className="button-secondary self-start"
            onClick={() => {
              setChangingCard(true);
              if (stripe.state.kind !== 'ready') void stripe.load();
            }}
          >
            {t('changeCard')}
          </button>
        ) : (
          <>
            <h3 className="font-semibold">{t('changeCard')}</h3>
            {stripe.state.kind === 'loading' && <p role="status">{t('loadingCardForm')}</p>}
            {stripe.state.kind === 'failed' && <StripeUnavailable onRetry={() => void stripe.load()} />}
            {stripe.state.kind === 'ready' && (
              <CardForm stripe={stripe.state.stripe} submitLabel={t('saveCard')} busy={busy} onSubmit={(details) => void saveCard(details)} />
            )}
          </>
        )}
      </div>

      {!changingCard && stripe.state.kind === 'failed' && <StripeUnavailable onRetry={() => void stripe.load()} />}
      <PaymentProblem problem={problem} />
    </div>
  );
}
