// The sidebar/drawer entries of SPEC point 2, in its order.
import type { Messages } from '@/lib/i18n/messages';

type NavKey = keyof Messages['Nav'];

export type NavEntry =
  | { key: NavKey; kind: 'link'; href: string }
  // A full document load: the page's Content-Security-Policy differs (/settings has Stripe's, lib/security/csp.ts).
  | { key: NavKey; kind: 'document'; href: string }
  | { key: NavKey; kind: 'modal'; modal: string }
  | { key: 'logout'; kind: 'logout'; href: '/logout' };

export function navEntries(user: { enableMCard: boolean; isAdmin?: boolean } | null): NavEntry[] {
  if (!user) {
    return [
      { key: 'register', kind: 'link', href: '/register' },
      { key: 'login', kind: 'link', href: '/login' },
      { key: 'appInfo', kind: 'modal', modal: 'appInfo' },
    ];
  }
  const entries: NavEntry[] = [
    { key: 'newMeeting', kind: 'modal', modal: 'newMeeting' },
    { key: 'dashboard', kind: 'link', href: '/' },
    { key: 'schedule', kind: 'link', href: '/schedule' },
    { key: 'calendar', kind: 'link', href: '/calendar' },
    { key: 'attendees', kind: 'link', href: '/attendees' },
    // The spec has no rooms route; rooms are managed in the admin area (docs/decisions.md).
    { key: 'rooms', kind: 'link', href: '/admin' },
    // The instance's administration, for admins only (issue 48, point 5).
    ...(user.isAdmin ? [{ key: 'administration', kind: 'link', href: '/admin/users' } as const] : []),
    // SPEC's "settings" entry opens the account modal. Issue 48, point 6: two screens were both
    // called Settings; the modal is "Account & security" (profile, password, two-factor sign-in)
    // and /settings is "Preferences" (time zone, language, theme…).
    { key: 'account', kind: 'modal', modal: 'account' },
    { key: 'preferences', kind: 'document', href: '/settings' },
    { key: 'faq', kind: 'link', href: '/faq' },
    { key: 'appInfo', kind: 'modal', modal: 'appInfo' },
    { key: 'download', kind: 'link', href: '/download' },
    { key: 'support', kind: 'link', href: '/support' },
  ];
  // Meeting-card accounts cannot log out (SPEC points 2 and 6).
  if (!user.enableMCard) entries.push({ key: 'logout', kind: 'logout', href: '/logout' });
  return entries;
}
