import { breakpointFor, breakpoints } from '@/lib/breakpoints';
import { navEntries } from '@/lib/navigation/entries';
import { parseHistory, pushRoute } from '@/lib/navigation/history';

describe('SPEC point 2: sidebar and drawer entries', () => {
  it('a logged-in user gets exactly the entries of the spec, in order', () => {
    expect(navEntries({ enableMCard: false }).map((e) => e.key)).toEqual([
      'newMeeting',
      'dashboard',
      'schedule',
      'calendar',
      'attendees',
      'rooms',
      'settings',
      'faq',
      'appInfo',
      'download',
      'support',
      'logout',
    ]);
  });

  it('new meeting, settings and app info open modals', () => {
    const modals = navEntries({ enableMCard: false }).filter((e) => e.kind === 'modal');
    expect(modals.map((e) => [e.key, e.kind === 'modal' && e.modal])).toEqual([
      ['newMeeting', 'newMeeting'],
      ['settings', 'account'],
      ['appInfo', 'appInfo'],
    ]);
  });

  it('logout is hidden for meeting-card accounts', () => {
    expect(navEntries({ enableMCard: true }).map((e) => e.key)).not.toContain('logout');
  });

  it('a logged-out visitor is offered register and login (plus app info)', () => {
    expect(navEntries(null).map((e) => e.key)).toEqual(['register', 'login', 'appInfo']);
  });
});

describe('SPEC point 2: route history', () => {
  it('keeps the last 10 entries', () => {
    let history: string[] = [];
    for (let i = 1; i <= 15; i++) history = pushRoute(history, `/page/${i}`);
    expect(history).toHaveLength(10);
    expect(history[0]).toBe('/page/6');
    expect(history[9]).toBe('/page/15');
  });

  it('does not record the same route twice in a row', () => {
    expect(pushRoute(['/a'], '/a')).toEqual(['/a']);
    expect(pushRoute(['/a'], '/b')).toEqual(['/a', '/b']);
  });

  it('tolerates a damaged stored history', () => {
    expect(parseHistory('not json')).toEqual([]);
    expect(parseHistory('{"a":1}')).toEqual([]);
    expect(parseHistory('["/a", 3, "/b"]')).toEqual(['/a', '/b']);
    expect(parseHistory(null)).toEqual([]);
  });
});

describe('SPEC point 2: breakpoints', () => {
  it('are xs 0, sm 576, md 768, lg 1200, xl 1904', () => {
    expect(breakpoints).toEqual({ xs: 0, sm: 576, md: 768, lg: 1200, xl: 1904 });
  });

  it.each([
    [0, 'xs'],
    [575, 'xs'],
    [576, 'sm'],
    [767, 'sm'],
    [768, 'md'],
    [1199, 'md'],
    [1200, 'lg'],
    [1903, 'lg'],
    [1904, 'xl'],
  ])('%i px is %s', (width, name) => {
    expect(breakpointFor(width)).toBe(name);
  });
});
