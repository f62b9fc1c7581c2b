'use client';

import { useTranslations } from 'next-intl';
import type { EditedEvent } from '@/lib/schedule/draft';
import { Link } from '@/lib/i18n/links';
import { Field } from '@/components/forms/Field';
import { SelectField } from '@/components/forms/SelectField';
import type { StepProps, WizardData } from './types';

const MODES = ['none', 'custom', 'generated'] as const;

type WizardRoom = WizardData['rooms'][number];

/**
 * Step 1: the room and the password (SPEC point 4): none leaves the field disabled with 'Not
 * password protected', custom takes one of 8 or more characters, generated makes a random one of
 * 16 when the meeting is saved (shown once then). The password is the room's: an empty custom
 * field keeps the room's current one, and "none" does not remove it (docs/decisions.md).
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
  const roomHasPassword = room?.hasPassword === true;
  const keeps = draft.passwordMode === 'generated' ? roomHasPassword && editing?.passwordMode === 'generated' : roomHasPassword;
  return (
    <div className="flex flex-col gap-5">
      {rooms.length ? (
        <SelectField label={t('room')} value={draft.roomId ?? ''} error={errors.roomId} onChange={(e) => onChange({ roomId: e.target.value })}>
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
            <input
              type="radio"
              name="passwordMode"
              checked={draft.passwordMode === mode}
              onChange={() => onChange({ passwordMode: mode, password: '' })}
            />
            {t(`passwordModes.${mode}`)}
          </label>
        ))}
      </fieldset>
      {draft.passwordMode === 'generated' ? (
        <p className="text-sm text-slate-600">{keeps ? t('generatedKept') : t('generatedHint')}</p>
      ) : (
        <Field
          label={t('password')}
          type="password"
          autoComplete="new-password"
          disabled={draft.passwordMode === 'none'}
          placeholder={draft.passwordMode === 'none' ? t('notProtected') : undefined}
          hint={draft.passwordMode === 'custom' && keeps ? t('keepPassword') : undefined}
          value={draft.passwordMode === 'none' ? '' : draft.password}
          error={errors.password}
          onChange={(e) => onChange({ password: e.target.value })}
        />
      )}
      {(draft.passwordMode !== 'none' || roomHasPassword) && (
        <p className="text-sm text-slate-600">{draft.passwordMode === 'none' ? t('roomKeepsPassword') : t('roomPasswordHint')}</p>
      )}
    </div>
  );
}
