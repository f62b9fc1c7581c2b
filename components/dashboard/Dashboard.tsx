import { getTranslations } from 'next-intl/server';
import { NextMeeting } from '@/components/calendar/NextMeeting';
import { StartMeetingButton } from '@/components/dashboard/StartMeetingButton';
import { ZoneNote } from '@/components/time/ZoneNote';
import type { User } from '@/lib/db/schema';
import { Link } from '@/lib/i18n/links';
import { normalizeTimezone } from '@/lib/time/timezones';

// SPEC point 2, dashboard: start meeting now, schedule a meeting, go to calendar.
export async function Dashboard({ user }: { user: User }) {
  const t = await getTranslations('Dashboard');
  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-bold">{t('welcome', { name: user.firstName })}</h1>
      <p className="mt-2 text-slate-600">{t('intro')}</p>
      <div className="mt-4">
        <NextMeeting timeZone={normalizeTimezone(user.timezone)} />
        <ZoneNote zone={normalizeTimezone(user.timezone)} />
      </div>
      <div className="mt-8 flex flex-wrap gap-3">
        <StartMeetingButton label={t('startNow')} />
        <Link href="/schedule" className="button-secondary">
          {t('schedule')}
        </Link>
        <Link href="/calendar" className="button-secondary">
          {t('goToCalendar')}
        </Link>
      </div>
    </section>
  );
}
