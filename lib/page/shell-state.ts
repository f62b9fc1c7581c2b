import 'server-only';
import { cookies } from 'next/headers';
import { cache } from 'react';
import type { ShellUser } from '@/lib/auth/shell-user';
import { needsBillingModal, trialDaysLeft, trialEnded } from '@/lib/billing/trial';
import { hasAnyRoom } from '@/lib/rooms/exists';
import { billingOn } from '@/lib/configuration/billing-mode';
import { isTheme, THEME_COOKIE, type Theme } from '@/lib/theme';
import { getCurrentUser } from '@/lib/auth/session';

/**
 * What the page frame shows of the request's user: name, e-mail, card flag, and the theme. Once
 * per request: the locale layout and the frame both ask, and the room lookup is a query.
 */
export const shellState = cache(async (): Promise<{ user: ShellUser | null; theme: Theme }> => {
  const user = await getCurrentUser();
  const themeCookie = (await cookies()).get(THEME_COOKIE)?.value;
  return {
    theme: isTheme(themeCookie) ? themeCookie : (user?.theme ?? 'green'),
    user: user
      ? {
          firstName: user.firstName,
          lastName: user.lastName,
          email: user.email,
          enableMCard: user.enableMCard,
          isAdmin: user.role === 'admin',
          needsBilling: needsBillingModal(user, billingOn()),
          // Every user on trial sees how long it lasts (a server without billing has no trial).
          trial: user.isTrial && billingOn() ? { ended: trialEnded(user), daysLeft: trialDaysLeft(user) } : null,
          timezone: user.timezone,
          hasRoom: await hasAnyRoom(user.id),
        }
      : null,
  };
});
