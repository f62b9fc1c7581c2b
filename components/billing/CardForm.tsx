'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import { Field } from '@/components/forms/Field';

export interface CardDetails {
  stripe: Stripe;
  card: StripeCardElement;
  name: string;
}

/**
 * Name on card (required, SPEC point 5) and Stripe's card field. The card number goes from
 * Stripe's own frame to Stripe; this page only ever holds the element.
 */
export function CardForm({
  stripe,
  submitLabel,
  busy,
  onSubmit,
}: {
  stripe: Stripe;
  submitLabel: string;
  busy: boolean;
  onSubmit: (details: CardDetails) => void;
}) {
  return (
    <Elements stripe={stripe}>
      <CardFields submitLabel={submitLabel} busy={busy} onSubmit={onSubmit} />
    </Elements>
  );
}

function CardFields({ submitLabel, busy, onSubmit }: { submitLabel: string; busy: boolean; onSubmit: (details: CardDetails) => void }) {
  const t = useTranslations('Billing');
  const stripe = useStripe();
  const elements = useElements();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [cardError, setCardError] = useState<string | undefined>();

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!name.trim()) {
      setNameError(t('cardNameRequired'));
      return;
    }
    if (!stripe || !card) return;
    onSubmit({ stripe, card, name: name.trim() });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <Field
        label={t('nameOnCard')}
        name="cardName"
        autoComplete="cc-name"
        value={name}
        error={nameError}
        required
        onChange={(event) => {
          setName(event.target.value);
          setNameError(undefined);
        }}
      />
      <div className="flex flex-col gap-1">
        <span id="card-label" className="text-sm font-medium text-slate-700">
          {t('cardDetails')}
        </span>
        <div role="group" aria-labelledby="card-label" className="rounded-md border border-slate-300 px-3 py-3">
          <CardElement options={{ hidePostalCode: true }} onChange={(event) => setCardError(event.error?.message)} />
        </div>
        {cardError && (
          <p role="alert" className="text-sm text-red-700">
            {cardError}
          </p>
        )}
        <p className="text-xs text-slate-500">{t('secureNote')}</p>
      </div>
      <button type="submit" className="button-primary self-start" disabled={busy || !stripe}>
        {submitLabel}
      </button>
    </form>
  );
}
