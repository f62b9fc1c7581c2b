'use client';

import { useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { apiGet, apiPost } from '@/lib/api/browser';
import type { Locale } from '@/lib/i18n/locales';
import { Link } from '@/lib/i18n/links';
import { CardForm, type CardDetails } from './CardForm';
import { money } from './money';
import { PaymentProblem, problemFromAnswer, problemFromStripe, StripeUnavailable, type Problem } from './PaymentProblem';
import { RoomsInput } from './RoomsInput';
import { useStripeLoader } from './useStripeLoader';

type Step = 'choose' | 'card' | 'processing' | 'done';

// How long "processing payment" waits for Stripe to confirm before saying it will finish later.
const PROCESSING_POLLS = 15;
const POLL_MS = 2_000;

/** SPEC point 4, billing: subscribe → processing payment → complete. */
export function Subscribe({ unitAmountCents, currency, onDone }: { unitAmountCents: number; currency: string; onDone: (message: string) => void }) {
  const t = useTranslations('Billing');
  const locale = useLocale() as Locale;
  const [step, setStep] = useState<Step>('choose');
  const [rooms, setRooms] = useState(1);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const stripe = useStripeLoader();
  const total = money(rooms * unitAmountCents, currency, locale);

  function toCard() {
    setProblem(null);
    setStep('card');
    if (stripe.state.kind !== 'ready') void stripe.load();
  }

  async function pay({ stripe: client, card, name }: CardDetails) {
    setBusy(true);
    setProblem(null);
    try {
      const start = await apiPost('/billing/payment/secret', { rooms });
      if (start.status !== 'ok') return setProblem(problemFromAnswer(start));
      const result = await client.confirmCardPayment(start.clientSecret as string, { payment_method: { card, billing_details: { name } } });
      if (result.error) return setProblem(problemFromStripe(result.error));
      setStep('processing');
      const done = await apiPost('/billing/payment', { paymentIntent: result.paymentIntent.id });
      if (done.status !== 'ok') {
        setStep('card');
        return setProblem(problemFromAnswer(done));
      }
      if (done.state === 'complete' || (await waitUntilSubscribed())) {
        // The panel says so, while the page refreshes into the paid plan.
        setStep('done');
        onDone(t('complete'));
      }
    } finally {
      setBusy(false);
    }
  }

  if (step === 'done') return null;
  if (step === 'processing') {
    return (
      <p role="status" aria-live="polite" className="rounded-md bg-slate-50 px-4 py-3">
        {t('processing')}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {step === 'choose' ? (
        <>
          <RoomsInput value={rooms} onChange={setRooms} />
          <p className="font-medium" aria-live="polite">
            {t('priceLine', { rooms, price: money(unitAmountCents, currency, locale), total })}
          </p>
          <p className="text-sm text-slate-600">
            {t('enterpriseNote')}{' '}
            <Link href="/enterprise" className="underline">
              {t('contactSales')}
            </Link>
          </p>
          <button type="button" className="button-primary self-start" onClick={toCard}>
            {t('subscribe')}
          </button>
        </>
      ) : (
        <>
          <p className="font-medium">{t('priceLine', { rooms, price: money(unitAmountCents, currency, locale), total })}</p>
          {stripe.state.kind === 'loading' && <p role="status">{t('loadingCardForm')}</p>}
          {stripe.state.kind === 'failed' && <StripeUnavailable onRetry={() => void stripe.load()} />}
          {stripe.state.kind === 'ready' && (
            <CardForm stripe={stripe.state.stripe} submitLabel={t('pay', { amount: total })} busy={busy} onSubmit={(details) => void pay(details)} />
          )}
          <button type="button" className="self-start text-sm underline" onClick={() => setStep('choose')}>
            {t('back')}
          </button>
        </>
      )}
      <PaymentProblem problem={problem} />
    </div>
  );
}

/** The bank may take a moment: ask until the plan shows as paid, or give up quietly. */
async function waitUntilSubscribed(): Promise<boolean> {
  for (let i = 0; i < PROCESSING_POLLS; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const billing = await apiGet<{ subscribed: boolean }>('/billing/payment');
    if (!Array.isArray(billing) && billing.subscribed) return true;
  }
  return false;
}
