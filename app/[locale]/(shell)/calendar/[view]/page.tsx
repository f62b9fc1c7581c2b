import { requirePageUser } from '@/lib/auth/guard';
import { todayIn } from '@/lib/calendar/view-path';
import { redirect } from '@/lib/i18n/links';
import { pageLocale } from '@/lib/i18n/page';
import { normalizeTimezone } from '@/lib/time/timezones';

// SPEC point 2: /calendar/{view} redirects to the week view with a date (today, the user's zone).
export default async function CalendarViewRedirect({ params }: PageProps<'/[locale]/calendar/[view]'>) {
  const locale = await pageLocale(params);
  const user = await requirePageUser(locale, '/calendar');
  redirect({ href: `/calendar/week/${todayIn(normalizeTimezone(user.timezone))}`, locale });
}
