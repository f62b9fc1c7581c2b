'use client';

import { useTranslations } from 'next-intl';
import { useErrorText } from '@/components/forms/useErrorText';

export interface Problem {
  code: string;
  /** SPEC point 8: an unknown payment error shows the transaction ID to give to support. */
  transactionId?: string;
}

export function PaymentProblem({ problem }: { problem: Problem | null }) {
  const t = useTranslations('Billing');
  const errorText = useErrorText();
  if (!problem) return null;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p>{errorText(problem.code)}</p>
      {problem.transactionId && (
        <p className="mt-1">
          {t('transactionHelp')} <code className="font-mono select-all">{problem.transactionId}</code>
        </p>
      )}
    </div>
  );
}

/** Stripe.js could not load (offline, blocked): say so plainly and offer another try. */
export function StripeUnavailable({ onRetry }: { onRetry: () => void }) {
  const t = useTranslations('Billing');
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <p>{t('stripeUnavailable')}</p>
      <button type="button" className="button-secondary self-start" onClick={onRetry}>
        {t('retry')}
      </button>
    </div>
  );
}

/** A problem from Stripe.js's confirmation: declined (with its payment) or incomplete details. */
export function problemFromStripe(error: { type?: string; payment_intent?: { id?: string } | null; setup_intent?: { id?: string } | null }): Problem {
  const transactionId = error.payment_intent?.id ?? error.setup_intent?.id;
  if (error.type === 'validation_error' || !transactionId) return { code: 'payment_incomplete' };
  return { code: 'payment_failed', transactionId };
}

export function problemFromAnswer(answer: { errorCode?: string; transactionId?: unknown }): Problem {
  return { code: answer.errorCode ?? 'error_setting_up_payment', transactionId: typeof answer.transactionId === 'string' ? answer.transactionId : undefined };
}
