'use client';

import { useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import { useErrorText } from '@/components/forms/useErrorText';
import { apiPost } from '@/lib/api/browser';
import { useRouter } from '@/lib/navigation/router';
import { passwordChange } from '@/lib/meeting/client/keys/room-password-store';
import { generateMeetingPassword } from '@/lib/meeting/password';
import type { RoomView } from '@/lib/rooms/view';
import { initialSecurity, planSecurity, SECURITY_OPTIONS, type RoomPasswordChoice, type Security } from './security';

/** Step one: the room, and how the meeting is protected (none, a password of one's own, a generated one). */
export function ChooseRoom({
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
  const [security, setSecurity] = useState<Security>(initialSecurity(initial));
  const [password, setPassword] = useState('');
  // A room with a password keeps it unless the person chooses to change it for everyone.
  const [roomPassword, setRoomPassword] = useState<RoomPasswordChoice>('keep');
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

  function choose(next: Security, changeRoomPassword: RoomPasswordChoice = roomPassword) {
    setSecurity(next);
    setError(null);
    setPassword(next === 'generated' ? generateMeetingPassword() : '');
    setRoomPassword(changeRoomPassword);
  }
  const asksAboutRoomPassword = room.hasPassword && security !== 'none';
  const passwordEditable = security !== 'none' && (!room.hasPassword || roomPassword === 'change');

  async function next(event: React.FormEvent) {
    event.preventDefault();
    if (!room) return;
    const plan = planSecurity(room, security, password, roomPassword);
    if ('error' in plan) return setError(plan.error);
    setBusy(true);
    const change = await passwordChange(plan.change);
    if (Object.keys(change.fields).length) {
      const answer = await apiPost('/api/room/update', { id: room.id, ...change.fields });
      if (answer.status !== 'ok') {
        setBusy(false);
        return setError(answer.errorCode ?? 'error_contact_us');
      }
      change.settle(room.meetingId);
    }
    setBusy(false);
    onReady({ room: { ...room, hasPassword: plan.hasPassword }, password: plan.shown });
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
            choose(initialSecurity(picked), 'keep');
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
        {SECURITY_OPTIONS.map((option) => (
          <label key={option} className="flex items-center gap-2">
            <input type="radio" name="security" value={option} checked={security === option} onChange={() => choose(option)} />
            {t(`securityOption.${option}`)}
          </label>
        ))}
      </fieldset>
      {asksAboutRoomPassword && (
        <fieldset className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3">
          <legend className="px-1 text-sm font-medium text-slate-700">{t('roomPassword.legend', { room: room.name })}</legend>
          {(['keep', 'change'] as const).map((choice) => (
            <label key={choice} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="roomPassword"
                className="mt-1"
                checked={roomPassword === choice}
                onChange={() => {
                  setRoomPassword(choice);
                  setError(null);
                  setPassword(choice === 'change' && security === 'generated' ? generateMeetingPassword() : '');
                }}
              />
              <span>{t(`roomPassword.${choice}`)}</span>
            </label>
          ))}
        </fieldset>
      )}
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
            disabled={!passwordEditable}
            value={passwordEditable ? password : ''}
            placeholder={security === 'none' ? t('notProtected') : undefined}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${passwordId}-error` : undefined}
            className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 font-mono disabled:bg-slate-100"
          />
          {security === 'generated' && passwordEditable && (
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
