import 'server-only';
import { cookies } from 'next/headers';
import { redirect as redirectTo } from 'next/navigation';
import type { User } from '@/lib/db/schema';
import { redirect } from '@/lib/i18n/links';
import type { Locale } from '@/lib/i18n/locales';
import { getCurrentUser } from './session';
import { SESSION_COOKIE } from './session-cookie';

/**
 * For pages that need a login: the user, or a redirect to the login page. The proxy redirects
 * too, but that is a convenience; this check next to the data is the one that counts.
 */
export async function requirePageUser(locale: Locale, returnTo?: string): Promise<User> {
  const user = await getCurrentUser();
  if (user) return user;
  // A cookie that unseals but no longer counts (revoked by a password change, say) would make
  // the proxy send /login back here: /logout clears it first.
  if ((await cookies()).has(SESSION_COOKIE)) redirectTo('/logout');
  const href = returnTo && returnTo !== '/' ? `/login?next=${encodeURIComponent(returnTo)}` : '/login';
  return redirect({ href, locale });
}
