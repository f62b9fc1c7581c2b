import { findRoute, isApiRequest, redirectFor, routeRules, type RouteRule } from '@/lib/navigation/routes';

const guest = { loggedIn: false };
const member = { loggedIn: true, role: 'user' as const };

describe('SPEC point 2: navigation rules', () => {
  it.each([
    ['/calendar', '/login?next=%2Fcalendar'],
    ['/calendar/week/2026-11-22', '/login?next=%2Fcalendar%2Fweek%2F2026-11-22'],
    ['/schedule', '/login?next=%2Fschedule'],
    ['/schedule/abc', '/login?next=%2Fschedule%2Fabc'],
    ['/admin', '/login?next=%2Fadmin'],
    ['/support', '/login?next=%2Fsupport'],
    ['/open-ticket', '/login?next=%2Fopen-ticket'],
    ['/view-ticket/7', '/login?next=%2Fview-ticket%2F7'],
    ['/attendees', '/login?next=%2Fattendees'],
  ])('a protected route (%s) without a logged-in user goes to Login', (path, target) => {
    expect(redirectFor(path, guest)).toBe(target);
  });

  it.each([
    '/',
    '/enterprise',
    '/register',
    '/login',
    '/forgotPassword',
    '/resetpassword/abc',
    '/activate-account',
    '/verify-account',
    '/settings',
    '/terms-of-service',
    '/download',
    '/faq',
    '/now/room-1',
    '/rate',
  ])('a public route (%s) opens without a login', (path) => {
    expect(redirectFor(path, guest)).toBeNull();
  });

  it('a logged-in user who opens Login is sent to Home', () => {
    expect(redirectFor('/login', member)).toBe('/');
  });

  it('a logged-in user reaches protected routes', () => {
    expect(redirectFor('/calendar', member)).toBeNull();
    expect(redirectFor('/', member)).toBeNull();
  });

  it('an unknown path is left to the not-found page', () => {
    expect(findRoute('/no/such/page')).toBeUndefined();
    expect(redirectFor('/no/such/page', guest)).toBeNull();
  });

  it('a route flagged to block the plain user role redirects that role to Home', () => {
    const rules: RouteRule[] = [{ name: 'admin', pattern: '/admin', auth: true, blockUserRole: true }];
    expect(redirectFor('/admin', member, rules)).toBe('/');
    expect(redirectFor('/admin', { loggedIn: true, role: 'admin' }, rules)).toBeNull();
  });

  it('issue 18: exactly the instance admin area carries the role-block flag; /admin (rooms) stays open to every user', () => {
    expect(routeRules.filter((rule) => rule.blockUserRole).map((rule) => rule.pattern)).toEqual([
      '/admin/users',
      '/admin/configuration',
      '/admin/support',
      '/admin/ratings',
      '/admin/audit',
    ]);
    for (const path of ['/admin/users', '/admin/configuration', '/admin/support', '/admin/ratings', '/admin/audit']) {
      expect(redirectFor(path, member)).toBe('/');
      expect(redirectFor(path, { loggedIn: true, role: 'admin' })).toBeNull();
      expect(redirectFor(path, guest)).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
    expect(redirectFor('/admin', member)).toBeNull();
    expect(redirectFor('/support', member)).toBeNull();
  });
});

describe('which requests are API calls (SPEC point 7)', () => {
  it.each([
    ['/api/health', 'GET', true],
    ['/2fa/g2f/setup', 'GET', true],
    ['/logout', 'GET', true],
    ['/contact', 'POST', true],
    ['/vip/activate', 'POST', true],
    ['/invitation/activate', 'GET', true],
    ['/billing/payment', 'GET', true],
    ['/stripe/key', 'GET', true],
    ['/login', 'POST', true],
    ['/register', 'POST', true],
    ['/login', 'GET', false],
    ['/register', 'GET', false],
    ['/calendar', 'GET', false],
    ['/vipers', 'GET', false],
  ])('%s %s → %s', (path, method, expected) => {
    expect(isApiRequest(path, method)).toBe(expected);
  });
});
