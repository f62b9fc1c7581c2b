import { safeNextPath } from '@/lib/auth/next-path';

// Issue 16, item 5: after login, `next` may only lead to a page of this site.
describe('safeNextPath: no open redirect after login', () => {
  it.each([
    ['/calendar', '/calendar'],
    ['/calendar/week/2026-11-24?x=1#top', '/calendar/week/2026-11-24?x=1#top'],
    ['/de/attendees', '/de/attendees'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ])('keeps a path of this site: %j → %j', (input, expected) => expect(safeNextPath(input)).toBe(expected));

  it.each([
    ['nothing', null],
    ['empty', ''],
    ['a full URL', 'https://evil.example/login'],
    ['protocol-relative', '//evil.example'],
    ['backslash', '/\\evil.example'],
    ['two backslashes', '/\\\\evil.example'],
    ['tab (the reported bypass)', '/\t/evil.example'],
    ['newline', '/\n/evil.example'],
    ['carriage return', '/\r/evil.example'],
    ['a NUL byte', '/\u0000/evil.example'],
    ['javascript:', 'javascript:alert(1)'],
    ['dot segments that make //', '/.//evil.example'],
    ['dot-dot segments that make //', '/a/..//evil.example'],
    ['data:', 'data:text/html,hi'],
    ['relative without slash', 'evil.example'],
    ['triple slash', '///evil.example'],
    ['tab then backslash', '/\t\\evil.example'],
    ['spaces before //', ' //evil.example'],
  ])('refuses %s', (_name, input) => expect(safeNextPath(input)).toBe('/'));

  it('what the login form reads from a decoded query: /login?next=%2F%09%2Fevil.example', () => {
    const next = new URLSearchParams('next=%2F%09%2Fevil.example').get('next');
    expect(safeNextPath(next)).toBe('/');
  });
});
