import { requirePageUser } from '@/lib/auth/guard';
import { todayIn } from '@/lib/calendar/routes';
import { redirect } from '@/lib/i18n/navigation';
import { pageLocale } from '@/lib/i18n/page';
import { normalizeTimezone } from '@/lib/time/timezones';

// SPEC point 2: /calendar opens the week of today in the user's time zone.
export default async function CalendarPage({ params }: { params: Promise<{ locale: string }> }) {
  const locale = await pageLocale(params);
  const user = await requirePageUser(locale, '/calendar');
  redirect({ href: `/calendar/week/${todayIn(normalizeTimezone(user.timezone))}`, locale });
}
