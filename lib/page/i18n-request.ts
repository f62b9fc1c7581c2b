import { getRequestConfig } from 'next-intl/server';
import { hasLocale } from 'next-intl';
import { routing } from '@/lib/i18n/routing';
import { getCurrentUser } from '@/lib/auth/session';
import { normalizeTimezone } from '@/lib/time/timezones';
import { loadMessages } from '@/lib/i18n/messages';

export default getRequestConfig(async ({ requestLocale }) => {
  const requested = await requestLocale;
  const locale = hasLocale(routing.locales, requested) ? requested : routing.defaultLocale;
  // Dates and times show in the account's zone (docs/decisions.md, "One way to tell time"). A guest's
  // times are the browser's zone, which only the browser knows (components/time/useDisplayZone);
  // the server renders a guest with Europe/London, SPEC point 4's default.
  const user = await getCurrentUser().catch(() => null);
  return { locale, messages: await loadMessages(locale), timeZone: normalizeTimezone(user?.timezone) };
});
