import { readFileSync } from 'node:fs';
import path from 'node:path';
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
      'account',
      'preferences',
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
      ['account', 'account'],
      ['appInfo', 'appInfo'],
    ]);
  });

  // Issue 48, point 6: SPEC's "settings" entry (the account modal) and /settings were both
  // called "Settings"; each now has its own name, and /settings (Stripe's policy) loads as a document.
  it('"Account & security" opens the modal, "Preferences" loads /settings as a document, and nothing is called Settings', () => {
    const entries = navEntries({ enableMCard: false });
    expect(entries.find((e) => e.key === 'preferences')).toEqual({ key: 'preferences', kind: 'document', href: '/settings' });
    const en = JSON.parse(readFileSync(path.join(process.cwd(), 'messages/en.json'), 'utf8')) as { Nav: Record<string, string> };
    const de = JSON.parse(readFileSync(path.join(process.cwd(), 'messages/de.json'), 'utf8')) as { Nav: Record<string, string> };
    const labels = (nav: Record<string, string>) => entries.map((e) => nav[e.key]);
    expect(labels(en.Nav)).toEqual(expect.arrayContaining(['Account & security', 'Preferences']));
    expect(labels(en.Nav)).not.toContain('Settings');
    expect(labels(de.Nav)).not.toContain('Einstellungen');
  });

  // Issue 48, point 5: admins reach the administration from the sidebar, not from a button on Rooms.
  it('admins, and only admins, get "Administration", right after Rooms', () => {
    const keys = navEntries({ enableMCard: false, isAdmin: true }).map((e) => e.key);
    expect(keys.slice(keys.indexOf('rooms'), keys.indexOf('rooms') + 2)).toEqual(['rooms', 'administration']);
    expect(navEntries({ enableMCard: false, isAdmin: true }).find((e) => e.key === 'administration')).toMatchObject({ kind: 'link', href: '/admin/users' });
    expect(navEntries({ enableMCard: false, isAdmin: false }).map((e) => e.key)).not.toContain('administration');
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
  // Tailwind reads them from app/globals.css, the only place the app defines them.
  const css = readFileSync(path.join(__dirname, '../../app/globals.css'), 'utf8');
  const declared = Object.fromEntries([...css.matchAll(/--breakpoint-(\w+):\s*(\d+)px/g)].map(([, name, px]) => [name, Number(px)]));

  it('are sm 576, md 768, lg 1200, xl 1904 (xs is everything below sm)', () => {
    expect(declared).toEqual({ sm: 576, md: 768, lg: 1200, xl: 1904 });
  });

  it("Tailwind's own defaults that SPEC does not have are switched off", () => {
    expect(css).toMatch(/--breakpoint-2xl:\s*initial/);
  });
});
