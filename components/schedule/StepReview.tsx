'use client';

import { useTranslations } from 'next-intl';
import { useNotificationText } from './useNotificationText';
import { draftStart, draftEnd, passwordPlan, type Draft } from '@/lib/schedule/draft';
import { useCalendarFormat } from '@/components/calendar/useCalendarFormat';
import { useDisplayZone } from '@/components/time/useDisplayZone';
import { useEventTitle } from '@/components/time/useEventTitle';
import { DEFAULT_TITLE } from '@/lib/event-rules/limits';
import { zoneName, zonesDiffer } from '@/lib/time/clock';
import { useDurationText } from './useDurationText';
import { useRepeatText } from './useRepeatText';
import type { WizardData } from './types';

/** Step 4: everything the meeting will be, before it is saved and the invitations go out. */
export function StepReview({ draft, data }: { draft: Draft; data: WizardData }) {
  const t = useTranslations('Schedule');
  const notificationText = useNotificationText();
  const d = useTranslations('Display');
  const format = useCalendarFormat(draft.timezone);
  // The meeting's own zone is the one it is entered in; the account's is added when its clock differs.
  const accountZone = useDisplayZone();
  const accountFormat = useCalendarFormat(accountZone);
  const title = useEventTitle();
  const repeatText = useRepeatText();
  const durationText = useDurationText();
  const room = data.rooms.find((r) => r.id === draft.roomId);
  const groups = data.groups.filter((g) => draft.groups.includes(g.id));
  // What guests will need, not the mode picked: a room with a password keeps it even on "none"
  // (StepRoom's roomKeepsPassword), as the invitation mail says (issue 48).
  const roomHasPassword = room?.hasPassword === true;
  const plan = passwordPlan(draft, { roomHasPassword });
  const passwordState = plan.changesRoom ? 'new' : roomHasPassword ? 'room' : 'none';
  const row = (label: string, value: React.ReactNode) => (
    <>
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd>{value}</dd>
    </>
  );
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
      {row(t('name'), title(draft.title.trim() || DEFAULT_TITLE))}
      {row(
        t('when'),
        <>
          {format.dateTime(draftStart(draft))} – {format.time(draftEnd(draft))}
          <span className="block text-slate-500">
            {durationText(draft.duration)} · {zoneName(draft.timezone)}
          </span>
          {zonesDiffer(draft.timezone, accountZone) && (
            <span className="block text-slate-500">
              {d('inYourZone', { zone: zoneName(accountZone), when: `${accountFormat.dateTime(draftStart(draft))} – ${accountFormat.time(draftEnd(draft))}` })}
            </span>
          )}
        </>,
      )}
      {row(t('room'), room?.name ?? '—')}
      {row(t('security'), t(`reviewPassword.${passwordState}`))}
      {row(t('attendees'), draft.attendees.length ? draft.attendees.map((a) => a.name || a.email).join(', ') : t('nobody'))}
      {groups.length > 0 && row(t('groups'), groups.map((g) => g.name).join(', '))}
      {row(t('repeat'), repeatText(draft))}
      {row(t('notifications'), draft.notifications.length ? draft.notifications.map((n) => notificationText(n)).join(', ') : t('noNotifications'))}
      {draft.description.trim() && row(t('description'), <span className="whitespace-pre-wrap">{draft.description}</span>)}
    </dl>
  );
}
