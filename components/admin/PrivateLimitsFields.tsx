'use client';

import { useTranslations } from 'next-intl';
import { Field } from '@/components/forms/Field';
import { PARTICIPANTS_PER_MEETING, ROOMS_PER_USER } from '@/lib/admin/limit-ranges';

type State = [string, (value: string) => void];

/** Rooms per user and participants per meeting: the limits of a server without billing (issue 35). */
export function PrivateLimitsFields({
  billingOn,
  rooms,
  participants,
  errors,
}: {
  billingOn: boolean;
  rooms: State;
  participants: State;
  errors: Record<string, string>;
}) {
  const t = useTranslations('AdminConfiguration');
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium text-slate-700">{billingOn ? t('privateLimits') : t('limits')}</legend>
      <p className="text-xs text-slate-500">{billingOn ? t('privateLimitsOn') : t('privateLimitsOff')}</p>
      <Field
        label={t('roomsPerUser')}
        hint={t('rangeHint', ROOMS_PER_USER)}
        type="number"
        min={ROOMS_PER_USER.min}
        max={ROOMS_PER_USER.max}
        value={rooms[0]}
        onChange={(event) => rooms[1](event.target.value)}
        error={errors.rooms_per_user}
        required
      />
      <Field
        label={t('participantsPerMeeting')}
        // Without billing it is the one participant limit (issue 48): say what it limits.
        hint={billingOn ? t('participantsHint', PARTICIPANTS_PER_MEETING) : `${t('participantsLimits')} ${t('participantsHint', PARTICIPANTS_PER_MEETING)}`}
        type="number"
        min={PARTICIPANTS_PER_MEETING.min}
        max={PARTICIPANTS_PER_MEETING.max}
        value={participants[0]}
        onChange={(event) => participants[1](event.target.value)}
        error={errors.participants_per_meeting}
        required
      />
    </fieldset>
  );
}
