'use client';

import { useId } from 'react';
import { useTranslations } from 'next-intl';
import type { EditedEvent } from '@/lib/schedule/draft';
import { Link } from '@/lib/i18n/links';
import { generateMeetingPassword } from '@/lib/meeting/password';
import { Field } from '@/components/forms/Field';
import { SelectField } from '@/components/forms/SelectField';
import { useErrorText } from '@/components/forms/useErrorText';
import { useToast } from '@/components/toast/ToastProvider';
import type { StepProps, WizardData } from './types';

const MODES = ['none', 'custom', 'generated'] as const;

type WizardRoom = WizardData['rooms'][number];

/**
 * Step 1: the room and the password (SPEC point 4): none leaves the field disabled with 'Not
 * password protected', custom takes one of 8 or more characters, generated makes a random one of
 * 16 here, shown and copyable while the step is open. The password is the room's
 * (docs/decisions.md): when the room has one, the step asks in plain words whether to keep it or
 * to change it for everyone (issue 33); "none" does not remove it.
 */
export function StepRoom({
  draft,
  errors,
  onChange,
  room,
  rooms,
  editing,
}: StepProps & { room: WizardRoom | undefined; rooms: WizardRoom[]; editing?: EditedEvent }) {
  const t = useTranslations('Schedule');
  const errorText = useErrorText();
  const toast = useToast();
  const generatedId = useId();
  const roomHasPassword = room?.hasPassword === true;
  const protectedMode = draft.passwordMode !== 'none';
  const changing = !roomHasPassword || draft.roomPassword === 'change';
  const keepsGenerated = draft.passwordMode === 'generated' && editing?.passwordMode === 'generated';

  function chooseMode(mode: (typeof MODES)[number]) {
    onChange({ passwordMode: mode, password: mode === 'generated' && changing ? generateMeetingPassword() : '' });
  }

  function chooseRoomPassword(choice: 'keep' | 'change') {
    onChange({ roomPassword: choice, password: choice === 'change' && draft.passwordMode === 'generated' ? generateMeetingPassword() : '' });
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(draft.password);
      toast.success(t('passwordCopied'));
    } catch {
      toast.error(t('copyFailed'));
    }
  }

  return (
    <div className="flex flex-col gap-5">
      {rooms.length ? (
        <SelectField
          label={t('room')}
          value={draft.roomId ?? ''}
          error={errors.roomId}
          onChange={(e) => onChange({ roomId: e.target.value, roomPassword: 'keep', password: '' })}
        >
          {rooms.map((room) => (
            <option key={room.id} value={room.id}>
              {room.name}
            </option>
          ))}
        </SelectField>
      ) : (
        <p className="text-slate-700">
          {t('noRooms')}{' '}
          <Link href="/admin" className="text-brand underline">
            {t('addRoom')}
          </Link>
        </p>
      )}
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-700">{t('security')}</legend>
        {MODES.map((mode) => (
          <label key={mode} className="flex items-center gap-2">
            <input type="radio" name="passwordMode" checked={draft.passwordMode === mode} onChange={() => chooseMode(mode)} />
            {t(`passwordModes.${mode}`)}
          </label>
        ))}
      </fieldset>

      {roomHasPassword && protectedMode && (
        <fieldset className="flex flex-col gap-2 rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium text-slate-700">{t('roomPassword.legend', { room: room?.name ?? '' })}</legend>
          <label className="flex items-start gap-2">
            <input type="radio" name="roomPassword" className="mt-1" checked={draft.roomPassword !== 'change'} onChange={() => chooseRoomPassword('keep')} />
            <span>{keepsGenerated ? t('generatedKept') : t('roomPassword.keep')}</span>
          </label>
          <label className="flex items-start gap-2">
            <input type="radio" name="roomPassword" className="mt-1" checked={draft.roomPassword === 'change'} onChange={() => chooseRoomPassword('change')} />
            <span>{t('roomPassword.change')}</span>
          </label>
        </fieldset>
      )}

      {draft.passwordMode === 'generated' && changing ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={generatedId} className="text-sm font-medium text-slate-700">
            {t('generatedLabel')}
          </label>
          <div className="flex flex-wrap gap-2">
            <input
              id={generatedId}
              readOnly
              value={draft.password}
              aria-describedby={`${generatedId}-hint${errors.password ? ` ${generatedId}-error` : ''}`}
              onFocus={(event) => event.target.select()}
              className="min-w-0 flex-1 basis-48 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono tracking-wide"
            />
            <button type="button" className="button-secondary" disabled={!draft.password} onClick={() => void copy()}>
              {t('copy')}
            </button>
            <button type="button" className="button-secondary" onClick={() => onChange({ password: generateMeetingPassword() })}>
              {t('regenerate')}
            </button>
          </div>
          <p id={`${generatedId}-hint`} className="text-xs text-slate-500">
            {t('generatedHint')}
          </p>
          {errors.password && (
            <p id={`${generatedId}-error`} role="alert" className="text-sm text-red-700">
              {errorText(errors.password)}
            </p>
          )}
        </div>
      ) : draft.passwordMode === 'generated' ? null : (
        (draft.passwordMode === 'none' || changing) && (
          <Field
            label={t('password')}
            type="password"
            autoComplete="new-password"
            disabled={draft.passwordMode === 'none'}
            placeholder={draft.passwordMode === 'none' ? t('notProtected') : undefined}
            value={draft.passwordMode === 'none' ? '' : draft.password}
            error={errors.password}
            onChange={(e) => onChange({ password: e.target.value })}
          />
        )
      )}
      {protectedMode && !roomHasPassword && <p className="text-sm text-slate-600">{t('roomPassword.newForRoom', { room: room?.name ?? '' })}</p>}
      {!protectedMode && roomHasPassword && <p className="text-sm text-slate-600">{t('roomKeepsPassword')}</p>}
    </div>
  );
}
