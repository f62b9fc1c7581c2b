import { defaultHomePage, homePageSettingProblem } from '@/lib/public-site/home-page';
import { joinTarget } from '@/lib/public-site/join-target';
import { parsePlainText } from '@/lib/public-site/plain-text';
import { existingPublicPages, publicPages } from '@/lib/seo/pages';

// Issue 35, item 4: the pure rules of the operator's public pages.
const ORIGIN = 'https://meet.example.org';

describe('joinTarget: a meeting link or a bare meeting id', () => {
  it.each([
    ['abc123', '/now/abc123'],
    ['  Xy_9-z  ', '/now/Xy_9-z'],
    ['https://meet.example.org/now/abc123', '/now/abc123'],
    ['https://meet.example.org/de/now/abc123/', '/now/abc123'],
    ['https://meet.example.org/zh-tw/now/abc123', '/now/abc123'],
    ['meet.example.org/now/abc123', '/now/abc123'],
    // The key rides in the fragment: it must reach the join page.
    ['https://meet.example.org/now/abc123#k=secret-key', '/now/abc123#k=secret-key'],
  ])('%s → %s', (input, path) => {
    expect(joinTarget(input, ORIGIN)).toMatchObject({ ok: true, path });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['hello world', 'invalid'],
    ['https://meet.example.org/calendar', 'invalid'],
    ['https://meet.example.org/now/', 'invalid'],
    ['https://meet.example.org/now/a/b', 'invalid'],
    ['https://meet.example.org/now/%3Cscript%3E', 'invalid'],
    ['javascript:alert(1)', 'invalid'],
    ['ftp://meet.example.org/now/abc', 'invalid'],
    ['x'.repeat(65), 'invalid'],
    ['https://other.example.com/now/abc123', 'otherServer'],
    ['https://meet.example.org:8443/now/abc123', 'otherServer'],
  ])('%j → %s', (input, reason) => {
    expect(joinTarget(input, ORIGIN)).toEqual({ ok: false, reason });
  });
});

describe('parsePlainText: the operator\u2019s texts as blocks, never HTML', () => {
  it('headings, paragraphs with their line breaks, and lists', () => {
    const text = '# Privacy\r\n\r\nWe are Example e.V.\nMusterstraße 1\n\n- one\n* two\n\n## Contact\nWrite to us.';
    expect(parsePlainText(text)).toEqual([
      { kind: 'heading', text: 'Privacy' },
      { kind: 'paragraph', lines: ['We are Example e.V.', 'Musterstraße 1'] },
      { kind: 'list', items: ['one', 'two'] },
      { kind: 'heading', text: 'Contact' },
      { kind: 'paragraph', lines: ['Write to us.'] },
    ]);
  });

  it('markup stays the text it is', () => {
    expect(parsePlainText('<img src=x onerror=alert(1)>')).toEqual([{ kind: 'paragraph', lines: ['<img src=x onerror=alert(1)>'] }]);
  });
});

describe('the home setting', () => {
  it('follows billing unless HOME_PAGE names a mode', () => {
    expect(defaultHomePage(undefined, true)).toBe('marketing');
    expect(defaultHomePage(undefined, false)).toBe('private');
    expect(defaultHomePage('Private', true)).toBe('private');
    expect(defaultHomePage(' marketing ', false)).toBe('marketing');
  });

  it('a HOME_PAGE that names no mode stops the server with a message naming it', () => {
    expect(homePageSettingProblem(undefined)).toBeNull();
    expect(homePageSettingProblem('private')).toBeNull();
    expect(homePageSettingProblem('landing')).toMatch(/HOME_PAGE=landing is not a setting/);
  });
});

describe('existingPublicPages', () => {
  const all = Object.keys(publicPages);
  it('the marketing site with open registration and an imprint has every page', () => {
    expect(existingPublicPages({ homePage: 'marketing', hasImprint: true, registrationOpen: true })).toEqual(all);
  });

  it('a private server without an imprint and with closed registration has neither those nor the sales page', () => {
    const pages = existingPublicPages({ homePage: 'private', hasImprint: false, registrationOpen: false });
    expect(pages).toEqual(all.filter((page) => !['enterprise', 'imprint', 'register'].includes(page)));
    expect(pages).toContain('privacy');
  });
});
