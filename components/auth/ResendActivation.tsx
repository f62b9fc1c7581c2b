'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiPost } from '@/lib/api/browser';
import { useErrorText } from '@/components/forms/useErrorText';

/**
 * "Didn't get it? Send again" under "Check your inbox" (issue 33, point 10): POST /invitation for
 * the address just registered. The server answers alike for any address and limits how often;
 * the button rests for a minute after each send.
 */
export function ResendActivation({ email }: { email: string }) {
  const t = useTranslations('Register');
  const errorText = useErrorText();
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'resting'>('idle');
  const [failure, setFailure] = useState<string | null>(null);

  async function send() {
    setState('sending');
    setFailure(null);
    const answer = await apiPost('/invitation', { email });
    if (answer.status !== 'ok') {
      setFailure(errorText(answer.errorCode ?? 'error_contact_us') ?? null);
      setState('idle');
      return;
    }
    setState('sent');
    setTimeout(() => setState((now) => (now === 'sent' ? 'resting' : now)), 60_000);
  }

  return (
    <div className="mt-3 text-sm">
      <p>
        {t('resendPrompt')}{' '}
        <button
          type="button"
          className="font-medium text-brand underline disabled:cursor-not-allowed disabled:opacity-60"
          disabled={state === 'sending' || state === 'sent'}
          onClick={() => void send()}
        >
          {t('resend')}
        </button>
      </p>
      <p role="status" className="mt-1">
        {state === 'sent' ? t('resent') : ''}
      </p>
      {failure && (
        <p role="alert" className="mt-1 text-red-800">
          {failure}
        </p>
      )}
    </div>
  );
}
