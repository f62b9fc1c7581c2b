import { getTranslations } from 'next-intl/server';
import { NextMeeting } from '@/components/calendar/NextMeeting';
import { StartMeetingButton } from '@/components/dashboard/StartMeetingButton';
import { ZoneNote } from '@/components/time/ZoneNote';
import { ColorDot } from '@/components/forms/ColorPicker';
import { RoomLink } from '@/components/rooms/RoomLink';
import type { User } from '@/lib/db/schema';
import { Link } from '@/lib/i18n/links';
import { listRooms } from '@/lib/rooms/list';
import { normalizeTimezone } from '@/lib/time/timezones';

/**
 * SPEC point 2, dashboard: start meeting now, schedule a meeting, go to calendar. "Start meeting
 * now" opens the default room's lobby in one click (issue 33); the new-meeting modal stays one
 * click away for another room or a password. The default room is shown with its link to copy.
 */
export async function Dashboard({ user }: { user: User }) {
  const t = await getTranslations('Dashboard');
  const rooms = await listRooms(user.id);
  const room = rooms.find((candidate) => candidate.isDefault) ?? rooms[0];
  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-bold break-words">{t('welcome', { name: user.firstName })}</h1>
      <p className="mt-2 text-slate-600">{t('intro')}</p>
      <div className="mt-4">
        <NextMeeting timeZone={normalizeTimezone(user.timezone)} />
        <ZoneNote zone={normalizeTimezone(user.timezone)} />
      </div>
      <div className="mt-8 flex flex-wrap gap-3">
        {room ? (
          <Link href={`/now/${room.meetingId}`} className="button-primary">
            {t('startNow')}
          </Link>
        ) : (
          <StartMeetingButton label={t('startNow')} primary />
        )}
        {room && <StartMeetingButton label={t('otherRoom')} />}
        <Link href="/schedule" className="button-secondary">
          {t('schedule')}
        </Link>
        <Link href="/calendar" className="button-secondary">
          {t('goToCalendar')}
        </Link>
      </div>
      {room && (
        <section aria-labelledby="default-room-heading" className="mt-8 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="default-room-heading" className="text-sm font-medium text-slate-600">
            {t('defaultRoom')}
          </h2>
          <div className="mt-2 flex min-w-0 items-center gap-2">
            <ColorDot color={room.color} />
            <p className="min-w-0 font-semibold break-words">{room.name}</p>
          </div>
          <p className="mt-1 text-sm text-slate-600">{room.hasPassword ? t('protected') : t('open')}</p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <div className="min-w-0 flex-1 basis-64">
              <RoomLink link={room.link} roomName={room.name} />
            </div>
            <Link href={`/now/${room.meetingId}`} className="button-primary">
              {t('start')}
            </Link>
          </div>
        </section>
      )}
    </section>
  );
}
