'use client';

import { useEffect, useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import { z } from 'zod';
import { Dialog } from '@/components/modal/Dialog';
import { useErrorText } from '@/components/forms/useErrorText';
import { useToast } from '@/components/toast/ToastProvider';
import { apiGet, apiPost } from '@/lib/api/client';
import { useRouter } from '@/lib/i18n/navigation';
import { passwordChange } from '@/lib/meeting/client/room-password-store';
import { generateMeetingPassword } from '@/lib/meeting/password';
import { ROOM_PASSWORD_MIN } from '@/lib/rooms/schemas';
import type { RoomView } from '@/lib/rooms/view';

type Security = 'none' | 'custom' | 'generated';
const isEmail = (value: string) => z.string().email().max(254).safeParse(value).success;

/**
 * The two-step new-meeting modal (SPEC point 4): choose the room and how it is protected,
 * then "Meeting ready" with the link, Join now and an e-mail invitation.
 */
export function NewMeetingModal({ close }: { close: () => void }) {
  const t = useTranslations('NewMeeting');
  const [rooms, setRooms] = useState<RoomView[] | null>(null);
  const [ready, setReady] = useState<{ room: RoomView; password: string | null } | null>(null);

  useEffect(() => {
    let cancelled = false;
    void apiGet<RoomView[]>('/api/rooms').then((list) => !cancelled && setRooms(Array.isArray(list) ? list : []));
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <Dialog title={ready ? t('readyTitle') : t('title')} onClose={close}>
      {rooms === null ? (
        <p className="text-slate-600">{t('loading')}</p>
      ) : ready ? (
        <MeetingReady room={ready.room} password={ready.password} close={close} />
      ) : (
        <ChooseRoom rooms={rooms} onReady={setReady} close={close} />
      )}
    </Dialog>
  );
}

function ChooseRoom({
  rooms,
  onReady,
  close,
}: {
  rooms: RoomView[];
  onReady: (ready: { room: RoomView; password: string | null }) => void;
  close: () => void;
}) {
  const t = useTranslations('NewMeeting');
  const errorText = useErrorText();
  const router = useRouter();
  const initial = rooms.find((room) => room.isDefault) ?? rooms[0];
  const [roomId, setRoomId] = useState(initial?.id ?? '');
  const [security, setSecurity] = useState<Security>(initial?.hasPassword ? 'custom' : 'none');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const roomFieldId = useId();
  const passwordId = useId();
  const room = rooms.find((candidate) => candidate.id === roomId);

  if (!room) {
    return (
      <div className="space-y-4">
        <p className="text-slate-700">{t('noRooms')}</p>
        <button
          type="button"
          className="button-primary"
          onClick={() => {
            close();
            router.push('/admin');
          }}
        >
          {t('addRoom')}
        </button>
      </div>
    );
  }

  function choose(next: Security) {
    setSecurity(next);
    setError(null);
    setPassword(next === 'generated' ? generateMeetingPassword() : '');
  }

  async function next(event: React.FormEvent) {
    event.preventDefault();
    if (!room) return;
    // "custom" with an empty field keeps a password the room already has.
    const keep = security === 'custom' && password === '' && room.hasPassword;
    if (security !== 'none' && !keep && password.length < ROOM_PASSWORD_MIN) return setError('room_password_length');
    setBusy(true);
    const change = await passwordChange(security === 'none' ? (room.hasPassword ? null : undefined) : keep ? undefined : password);
    if (Object.keys(change.fields).length) {
      const answer = await apiPost('/api/room/update', { id: room.id, ...change.fields });
      if (answer.status !== 'ok') {
        setBusy(false);
        return setError(answer.errorCode ?? 'error_contact_us');
      }
      change.settle(room.meetingId);
    }
    setBusy(false);
    onReady({
      room: { ...room, hasPassword: security !== 'none' },
      password: security === 'none' || keep ? null : password,
    });
  }

  return (
    <form className="space-y-5" onSubmit={next} noValidate>
      <div className="flex flex-col gap-1">
        <label htmlFor={roomFieldId} className="text-sm font-medium text-slate-700">
          {t('room')}
        </label>
        <select
          id={roomFieldId}
          value={roomId}
          onChange={(event) => {
            setRoomId(event.target.value);
            const picked = rooms.find((candidate) => candidate.id === event.target.value);
            choose(picked?.hasPassword ? 'custom' : 'none');
          }}
          className="rounded-md border border-slate-300 px-3 py-2"
        >
          {rooms.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">{t('security')}</legend>
        {(['none', 'custom', 'generated'] as const).map((option) => (
          <label key={option} className="flex items-center gap-2">
            <input type="radio" name="security" value={option} checked={security === option} onChange={() => choose(option)} />
            {t(`securityOption.${option}`)}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-col gap-1">
        <label htmlFor={passwordId} className="text-sm font-medium text-slate-700">
          {t('password')}
        </label>
        <div className="flex gap-2">
          <input
            id={passwordId}
            type="text"
            autoComplete="off"
            spellCheck={false}
            disabled={security === 'none'}
            value={security === 'none' ? '' : password}
            placeholder={
              security === 'none' ? t('notProtected') : room.hasPassword && security === 'custom' ? t('keepPassword') : undefined
            }
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${passwordId}-error` : undefined}
            className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 font-mono disabled:bg-slate-100"
          />
          {security === 'generated' && (
            <button type="button" className="button-secondary" onClick={() => setPassword(generateMeetingPassword())}>
              {t('regenerate')}
            </button>
          )}
        </div>
        {error && (
          <p id={`${passwordId}-error`} role="alert" className="text-sm text-red-700">
            {errorText(error)}
          </p>
        )}
      </div>
      <div className="flex justify-end gap-2">
        <button type="button" className="button-secondary" onClick={close}>
          {t('cancel')}
        </button>
        <button type="submit" className="button-primary" disabled={busy}>
          {t('next')}
        </button>
      </div>
    </form>
  );
}

function MeetingReady({ room, password, close }: { room: RoomView; password: string | null; close: () => void }) {
  const t = useTranslations('NewMeeting');
  const errorText = useErrorText();
  const toast = useToast();
  const router = useRouter();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const linkId = useId();
  const passwordId = useId();
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
    if (!isEmail(address)) return setEmailError(t('invalidEmail'));
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
      <div className="flex flex-col gap-1">
        <label htmlFor={linkId} className="text-sm font-medium text-slate-700">
          {t('link')}
        </label>
        <div className="flex gap-2">
          <input id={linkId} readOnly value={room.link} className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2" onFocus={(event) => event.target.select()} />
          <button type="button" className="button-secondary" onClick={() => void copy(room.link)}>
            {t('copy')}
          </button>
        </div>
      </div>
      {password && (
        <div className="flex flex-col gap-1">
          <label htmlFor={passwordId} className="text-sm font-medium text-slate-700">
            {t('password')}
          </label>
          <div className="flex gap-2">
            <input id={passwordId} readOnly value={password} className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono" />
            <button type="button" className="button-secondary" onClick={() => void copy(password)}>
              {t('copyPassword')}
            </button>
          </div>
        </div>
      )}
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
