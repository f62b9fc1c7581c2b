import { eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { configuration, ratings } from '@/lib/db/schema';
import { POST as rate } from '@/app/api/rate/route';
import robots from '@/app/robots';
import sitemap from '@/app/sitemap';
import { locales } from '@/lib/i18n/locales';
import { publicPages } from '@/lib/seo/pages';
import { call, createUser, sessionCookies } from '../support/api';

afterAll(() => closeDb());

let address = 0;
/** A client address of its own per test, so that one test's rate limit never touches another's. */
const client = () => ({ 'x-enclave-peer': `198.51.100.${(address += 1)}` });

const ratingCount = async () => (await (await getDb()).select().from(ratings)).length;

describe('POST /api/rate (SPEC point 7): every bad body is refused and nothing is stored', () => {
  it.each([
    { name: 'no body at all', body: {}, code: 'missing_data' },
    { name: 'no rating', body: { comment: 'nice' }, code: 'missing_data' },
    { name: 'rating 0', body: { rating: 0 }, code: 'incorrect_data' },
    { name: 'rating 6', body: { rating: 6 }, code: 'incorrect_data' },
    { name: 'rating -1', body: { rating: -1 }, code: 'incorrect_data' },
    { name: 'a fraction', body: { rating: 4.5 }, code: 'incorrect_data' },
    { name: 'a string', body: { rating: '5' }, code: 'incorrect_data' },
    { name: 'null', body: { rating: null }, code: 'incorrect_data' },
    { name: 'a list', body: { rating: [5] }, code: 'incorrect_data' },
    { name: 'a comment that is not text', body: { rating: 5, comment: 42 }, code: 'incorrect_data' },
    { name: 'a comment over 1,000 characters', body: { rating: 5, comment: 'x'.repeat(1001) }, code: 'incorrect_data' },
    { name: 'not JSON', body: '{"rating": 5', code: 'incorrect_data' },
    { name: 'a JSON list', body: [5], code: 'incorrect_data' },
  ])('$name → 400 $code', async ({ body, code }) => {
    const before = await ratingCount();
    const answer = await call(rate, { body, headers: client() });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: 'error', errorCode: code, message: expect.any(String) });
    expect(answer.text).not.toMatch(/at .*\.ts|stack/i);
    expect(await ratingCount()).toBe(before);
  });

  it('a request from another site is refused (CSRF) and stores nothing', async () => {
    const before = await ratingCount();
    const answer = await call(rate, { body: { rating: 5 }, origin: 'https://evil.example', headers: client() });
    expect(answer.status).toBe(403);
    expect(await ratingCount()).toBe(before);
  });

  it('the message of a refusal is in the language asked for', async () => {
    const answer = await call(rate, { body: { rating: 9 }, headers: { ...client(), 'accept-language': 'de' }, cookies: { NEXT_LOCALE: 'de' } });
    const english = await call(rate, { body: { rating: 9 }, headers: client() });
    expect(answer.json.errorCode).toBe('incorrect_data');
    expect(answer.json.message).not.toBe(english.json.message);
  });
});

describe('POST /api/rate stores a rating', () => {
  it('from a guest: the rating and the trimmed comment, no user', async () => {
    const answer = await call(rate, { body: { rating: 4, comment: '  Clear sound  ' }, headers: client() });
    expect(answer.json).toEqual({ status: 'ok' });
    const db = await getDb();
    const [row] = await db.select().from(ratings).where(eq(ratings.comment, 'Clear sound'));
    expect(row).toMatchObject({ rating: 4, userId: null });
  });

  it('from a logged-in user: linked to that user; an empty comment is no comment', async () => {
    const { user, cookie } = await createUser();
    const answer = await call(rate, { body: { rating: 5, comment: '   ' }, cookies: sessionCookies(cookie), headers: client() });
    expect(answer.json).toEqual({ status: 'ok' });
    const db = await getDb();
    expect(await db.select().from(ratings).where(eq(ratings.userId, user.id))).toEqual([expect.objectContaining({ rating: 5, comment: null })]);
  });

  it('is rate limited per client: the 11th rating within the hour → 429 too_many_attempts, not stored', async () => {
    const headers = client();
    for (let i = 0; i < 10; i += 1) expect((await call(rate, { body: { rating: 3 }, headers })).status).toBe(200);
    const before = await ratingCount();
    const answer = await call(rate, { body: { rating: 3 }, headers });
    expect(answer.status).toBe(429);
    expect(answer.json.errorCode).toBe('too_many_attempts');
    expect(await ratingCount()).toBe(before);
    // Another client is not affected.
    expect((await call(rate, { body: { rating: 3 }, headers: client() })).status).toBe(200);
  });
});

describe('sitemap.xml lists every public page in every language', () => {
  let entries: Awaited<ReturnType<typeof sitemap>> = [];
  let urls: string[] = [];
  beforeAll(async () => {
    // On PostgreSQL the configuration row is shared with the other files: no imprint, the default home.
    await (await getDb()).update(configuration).set({ homePage: null, imprintText: null }).where(eq(configuration.id, 1));
    entries = await sitemap();
    urls = entries.map((entry) => new URL(entry.url).pathname);
  });
  // Issue 35: this server has no imprint (none written) and no sales page (billing off: the plain home).
  const existing = Object.entries(publicPages)
    .filter(([page]) => page !== 'imprint' && page !== 'enterprise')
    .map(([, path]) => path);

  it('one entry per public page × locale, nothing else', () => {
    expect(entries).toHaveLength(existing.length * locales.length);
    for (const path of existing) {
      expect(urls).toContain(path);
      expect(urls).toContain(path === '/' ? '/de' : `/de${path}`);
      expect(urls).toContain(path === '/' ? '/zh-tw' : `/zh-tw${path}`);
    }
    expect(urls.filter((url) => /calendar|admin|now|support|api/.test(url))).toEqual([]);
  });

  it('absolute addresses on APP_URL, each with its twelve hreflang alternates and x-default', () => {
    const faq = entries.find((entry) => entry.url.endsWith('/fr/faq'))!;
    expect(faq.url).toMatch(/^https?:\/\/[^/]+\/fr\/faq$/);
    const languages = faq.alternates!.languages as Record<string, string>;
    expect(Object.keys(languages)).toHaveLength(13);
    expect(new URL(languages['zh-CN']!).pathname).toBe('/zh-cn/faq');
    expect(new URL(languages['x-default']!).pathname).toBe('/faq');
  });
});

describe('robots.txt keeps crawlers out of the private areas', () => {
  const rules = robots();
  const rule = Array.isArray(rules.rules) ? rules.rules[0]! : rules.rules;
  const disallowed = [rule.disallow].flat();

  it.each([
    '/calendar',
    '/de/calendar',
    '/schedule',
    '/admin',
    '/attendees',
    '/support',
    '/now/',
    '/pt/now/',
    '/settings',
    '/confirm-email',
    '/de/confirm-email',
    '/api/',
    '/2fa/',
    '/billing/',
  ])('disallows %s', (path) => expect(disallowed).toContain(path));

  it('allows the public pages and names the sitemap', () => {
    for (const path of Object.values(publicPages)) {
      expect(disallowed.some((prefix) => prefix && path.startsWith(prefix))).toBe(false);
    }
    expect(rule.allow).toBe('/');
    expect(rules.sitemap).toMatch(/\/sitemap\.xml$/);
  });
});

describe('GET /api/configuration/downloads: white-label URLs (SPEC point 1)', () => {
  it('takes a URL from the environment when the configuration has none, and never a non-web address', async () => {
    const { configuration } = await import('@/lib/db/schema');
    const { GET: downloads } = await import('@/app/api/configuration/downloads/route');
    const db = await getDb();
    await db.update(configuration).set({ downloads: { windows: 'javascript:alert(1)', mac: '/relative.dmg', linux: 'https://apps.example/enclave.AppImage' } });
    process.env.DOWNLOAD_URL_OUTLOOK = 'https://apps.example/outlook.zip';
    process.env.DOWNLOAD_URL_LINUX = 'https://env.example/ignored';
    try {
      const list = (await call(downloads)).json as unknown as { platform: string; url: string | null }[];
      const url = (platform: string) => list.find((item) => item.platform === platform)?.url;
      expect(url('outlook')).toBe('https://apps.example/outlook.zip');
      expect(url('linux')).toBe('https://apps.example/enclave.AppImage');
      expect(url('windows')).toBeNull();
      expect(url('mac')).toBeNull();
    } finally {
      delete process.env.DOWNLOAD_URL_OUTLOOK;
      delete process.env.DOWNLOAD_URL_LINUX;
      await db.update(configuration).set({ downloads: {} });
    }
  });
});
