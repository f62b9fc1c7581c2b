import 'server-only';
import type { User } from '@/lib/db/schema';
import { redirect } from '@/lib/i18n/navigation';
import type { Locale } from '@/lib/i18n/locales';
import { getCurrentUser } from './session';

/**
 * For pages that need a login: the user, or a redirect to the login page. The proxy redirects
 * too, but that is a convenience; this check next to the data is the one that counts.
 */
export async function requirePageUser(locale: Locale, returnTo?: string): Promise<User> {
  const user = await getCurrentUser();
  if (!user) {
    const href = returnTo && returnTo !== '/' ? `/login?next=${encodeURIComponent(returnTo)}` : '/login';
    return redirect({ href, locale });
  }
  return user;
}
