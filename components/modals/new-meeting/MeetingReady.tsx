'use client';

import { useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import { isEmailAddress } from '@/lib/email-address';
import { useErrorText } from '@/components/forms/useErrorText';
import { useToast } from '@/components/toast/ToastProvider';
import { useRouter } from '@/lib/navigation/router';
import type { RoomView } from '@/lib/rooms/view';
import { CopyField } from './CopyField';

/** Step two, "Meeting ready": the link and a new password to copy, an e-mail invitation, Join now. */
export function MeetingReady({ room, password, close }: { room: RoomView; password: string | null; close: () => void }) {
  const t = useTranslations('NewMeeting');
  const errorText = useErrorText();
  const toast = useToast();
  const router = useRouter();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const emailId = useId();

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('copied'));
    } catch {
      toast.error(t('copyFailed'));
    }
  }

  async function invite(event: React.FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!isEmailAddress(address)) return setEmailError(t('invalidEmail'));
    setEmailError(null);
    setSending(true);
    const answer = await fetch(`/api/invite/${encodeURIComponent(room.meetingId)}/${encodeURIComponent(address)}`, {
      credentials: 'include',
      headers: { accept: 'application/json' },
    })
      .then((response) => response.json() as Promise<{ status?: string; errorCode?: string }>)
      .catch(() => ({ status: 'error', errorCode: 'error_contact_us' }));
    setSending(false);
    if (answer.status !== 'ok') return setEmailError(errorText(answer.errorCode ?? 'error_contact_us') ?? null);
    toast.success(t('invited', { email: address }));
    setEmail('');
  }

  return (
    <div className="space-y-5">
      <p className="text-slate-700">{t('readyText', { room: room.name })}</p>
      <CopyField label={t('link')} value={room.link} copyLabel={t('copy')} onCopy={(text) => void copy(text)} selectOnFocus />
      {password && <CopyField label={t('password')} value={password} copyLabel={t('copyPassword')} onCopy={(text) => void copy(text)} mono />}
      <form className="flex flex-col gap-1" onSubmit={invite} noValidate>
        <label htmlFor={emailId} className="text-sm font-medium text-slate-700">
          {t('inviteByEmail')}
        </label>
        <div className="flex gap-2">
          <input
            id={emailId}
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? `${emailId}-error` : undefined}
            className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2"
          />
          <button type="submit" className="button-secondary" disabled={sending}>
            {t('sendInvite')}
          </button>
        </div>
        {emailError && (
          <p id={`${emailId}-error`} role="alert" className="text-sm text-red-700">
            {emailError}
          </p>
        )}
      </form>
      <div className="flex justify-end">
        <button
          type="button"
          className="button-primary"
          onClick={() => {
            close();
            router.push(`/now/${room.meetingId}`);
          }}
        >
          {t('joinNow')}
        </button>
      </div>
    </div>
  );
}
