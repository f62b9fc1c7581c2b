// The routes of SPEC point 2: the path, whether a login is needed, the alias in the page title.

export interface RouteRule {
  /** Route name; also the key of its alias in messages (Routes.<name>). */
  name: string;
  /** Path pattern without locale prefix; `:param` is one segment. */
  pattern: string;
  auth: boolean;
  /**
   * SPEC point 2: a route may block the plain "user" role (redirected to Home). The instance
   * admin area carries it (issue 18); its pages and handlers check the role again themselves.
   */
  blockUserRole?: boolean;
}

export const routeRules: RouteRule[] = [
  // Home is both: the dashboard for a logged-in user, the marketing page for a visitor (the page
  // itself chooses), so a visitor is not sent to Login.
  { name: 'home', pattern: '/', auth: false },
  { name: 'register', pattern: '/register', auth: false },
  { name: 'login', pattern: '/login', auth: false },
  { name: 'forgotPassword', pattern: '/forgotPassword', auth: false },
  { name: 'resetPassword', pattern: '/resetpassword/:hash', auth: false },
  { name: 'activateAccount', pattern: '/activate-account', auth: false },
  { name: 'verifyAccount', pattern: '/verify-account', auth: false },
  // Where the link confirming a new e-mail address lands (lib/account/email-change.ts).
  { name: 'confirmEmail', pattern: '/confirm-email', auth: false },
  { name: 'settings', pattern: '/settings', auth: false },
  { name: 'termsOfService', pattern: '/terms-of-service', auth: false },
  { name: 'download', pattern: '/download', auth: false },
  { name: 'faq', pattern: '/faq', auth: false },
  // docs/e2ee-crypto.md: the page that states what encryption protects and its honest limits.
  { name: 'security', pattern: '/security', auth: false },
  { name: 'meeting', pattern: '/now/:id', auth: false },
  { name: 'calendar', pattern: '/calendar', auth: true },
  { name: 'calendarView', pattern: '/calendar/:view', auth: true },
  { name: 'calendarDate', pattern: '/calendar/:view/:date', auth: true },
  { name: 'schedule', pattern: '/schedule', auth: true },
  { name: 'scheduleEdit', pattern: '/schedule/:edit', auth: true },
  { name: 'admin', pattern: '/admin', auth: true },
  // Issue 48, point 5: the setup link of the log; the page asks a visitor to log in and keeps the token.
  { name: 'firstAdmin', pattern: '/first-admin', auth: false },
  // The instance admin area (issue 18): role "admin" only. /admin itself stays the rooms list.
  { name: 'adminUsers', pattern: '/admin/users', auth: true, blockUserRole: true },
  { name: 'adminConfiguration', pattern: '/admin/configuration', auth: true, blockUserRole: true },
  { name: 'adminSupport', pattern: '/admin/support', auth: true, blockUserRole: true },
  { name: 'adminRatings', pattern: '/admin/ratings', auth: true, blockUserRole: true },
  { name: 'adminAudit', pattern: '/admin/audit', auth: true, blockUserRole: true },
  { name: 'support', pattern: '/support', auth: true },
  { name: 'openTicket', pattern: '/open-ticket', auth: true },
  { name: 'viewTicket', pattern: '/view-ticket/:id', auth: true },
  { name: 'attendees', pattern: '/attendees', auth: true },
  { name: 'rate', pattern: '/rate', auth: false },
  { name: 'enterprise', pattern: '/enterprise', auth: false },
  // Issue 35: the operator's privacy policy, and the legal notice where the operator wrote one.
  { name: 'privacy', pattern: '/privacy', auth: false },
  { name: 'imprint', pattern: '/imprint', auth: false },
];

function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  return want.length === have.length && want.every((part, i) => part.startsWith(':') || part === have[i]);
}

/** The rule for a path without locale prefix, or undefined for an unknown path (not found). */
export function findRoute(pathname: string, rules: readonly RouteRule[] = routeRules): RouteRule | undefined {
  return rules.find((rule) => matches(rule.pattern, pathname));
}

/**
 * SPEC point 2, navigation rules: where a request for `pathname` must go instead, if anywhere.
 * Returns the target path without locale prefix, or null to let it through.
 */
export function redirectFor(
  pathname: string,
  session: { loggedIn: boolean; role?: 'user' | 'admin' },
  rules: readonly RouteRule[] = routeRules,
): string | null {
  const rule = findRoute(pathname, rules);
  if (!rule) return null;
  if (rule.name === 'login' && session.loggedIn) return '/';
  if (rule.auth && !session.loggedIn) {
    return `/login?next=${encodeURIComponent(pathname)}`;
  }
  if (rule.blockUserRole && session.role === 'user') return '/';
  return null;
}

/** Paths answered by route handlers for every method, never by a page (SPEC point 7). */
const apiPrefixes = ['/api/', '/2fa/', '/stripe/', '/billing/', '/invitation/', '/vip/', '/dev/'];
const apiExact = new Set(['/logout', '/contact', '/invitation', '/vip', '/metrics']);
/** Paths that are a page for GET and an API call for other methods. */
const pageAndApi = new Set(['/login', '/register']);

export function isApiRequest(pathname: string, method: string): boolean {
  if (apiExact.has(pathname) || apiPrefixes.some((prefix) => pathname.startsWith(prefix))) return true;
  return pageAndApi.has(pathname) && method !== 'GET' && method !== 'HEAD';
}
