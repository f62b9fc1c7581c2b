import { eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { configuration, users } from '@/lib/db/schema';
import { GET as health } from '@/app/api/health/route';
import { GET as getConfiguration } from '@/app/api/configuration/route';
import { GET as getDownloads } from '@/app/api/configuration/downloads/route';
import { GET as getTimezones } from '@/app/api/timezone/route';
import { GET as getLocation } from '@/app/api/location/route';
import { GET as getLang, POST as postLang } from '@/app/api/lang/route';
import { config } from '@/lib/environment';
import { call, createUser, sessionCookies } from '../support/api';

afterAll(() => closeDb());

describe('GET /api/health', () => {
  it('answers ok when the database answers', async () => {
    const answer = await call(health);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: 'ok', db: 'ok' });
  });
});

describe('GET /api/configuration (SPEC point 3)', () => {
  it('answers product_price (with billing on), max_event_attendees and enable2fa from the configuration row', async () => {
    const db = await getDb();
    await db.update(configuration).set({ productPriceCents: 3495, maxEventAttendees: 25, enable2fa: false });
    // This file's server is billing off, where there is no price (issue 48): the keys turn billing on.
    const stripe = config.stripe as { secretKey?: string; publishableKey?: string };
    Object.assign(stripe, { secretKey: 'sk_test_public_api', publishableKey: 'pk_test_public_api' });
    const answer = await call(getConfiguration).finally(() => Object.assign(stripe, { secretKey: undefined, publishableKey: undefined }));
    expect(answer.json).toMatchObject({ product_price: 34.95, max_event_attendees: 25, enable2fa: false });
    await db.update(configuration).set({ maxEventAttendees: 100, enable2fa: true });
    expect((await call(getConfiguration)).json).toMatchObject({ max_event_attendees: 100, enable2fa: true });
  });
});

describe('GET /api/configuration/downloads (SPEC point 1)', () => {
  it("lists the six platforms with their minimum system and the operator's URLs", async () => {
    const db = await getDb();
    await db.update(configuration).set({ downloads: { android: 'https://downloads.example/enclave.apk', ios: 42 as never } });
    const answer = await call(getDownloads);
    const list = answer.json as unknown as { platform: string; url: string | null; minimum: string }[];
    expect(list.map((d) => d.platform)).toEqual(['outlook', 'android', 'ios', 'windows', 'mac', 'linux']);
    expect(list.find((d) => d.platform === 'android')).toEqual({
      platform: 'android',
      url: 'https://downloads.example/enclave.apk',
      minimum: 'Android 8',
    });
    // A value that is not a string is never passed on as a link.
    expect(list.find((d) => d.platform === 'ios')).toMatchObject({ url: null, minimum: 'iOS 12' });
  });
});

describe('GET /api/timezone', () => {
  it('answers the IANA zones with their current offsets', async () => {
    const list = (await call(getTimezones)).json as unknown as { id: string; offset: number }[];
    expect(list.length).toBeGreaterThan(300);
    expect(list.some((z) => z.id === 'Europe/Bratislava')).toBe(true);
  });
});

describe('GET /api/location (no third-party lookup)', () => {
  it.each([
    [{ 'cf-ipcountry': 'DE' }, 'DE', 'eu'],
    [{ 'cf-ipcountry': 'US' }, 'US', 'na'],
    [{ 'x-vercel-ip-country': 'CA' }, 'CA', 'ca'],
    [{ 'cf-ipcountry': 'BR' }, 'BR', 'ot'],
    [{}, null, 'ot'],
  ])('%j → %s / %s', async (headers, country, region) => {
    expect((await call(getLocation, { headers })).json).toEqual({ country, region });
  });

  it("falls back to the logged-in user's preferred region", async () => {
    const { cookie } = await createUser({ preferredRegion: 'na' });
    expect((await call(getLocation, { cookies: sessionCookies(cookie) })).json).toEqual({ country: null, region: 'na' });
  });
});

describe('GET/POST /api/lang (SPEC point 1)', () => {
  it("a guest's choice is saved as the guest language cookie", async () => {
    const answer = await call(postLang, { body: { lang: 'sk' } });
    expect(answer.json).toEqual({ status: 'ok', lang: 'sk' });
    expect(answer.headers.get('set-cookie')).toMatch(/NEXT_LOCALE=sk;.*Path=\//i);
    expect((await call(getLang, { cookies: { NEXT_LOCALE: 'sk' } })).json).toEqual({ lang: 'sk' });
  });

  it("a logged-in user's choice is saved to the user", async () => {
    const { user, cookie } = await createUser({ lang: 'en' });
    await call(postLang, { body: { lang: 'zh-tw' }, cookies: sessionCookies(cookie) });
    const db = await getDb();
    const [saved] = await db.select({ lang: users.lang }).from(users).where(eq(users.id, user.id));
    expect(saved?.lang).toBe('zh-tw');
    // …and wins over a stale cookie on the next visit.
    expect((await call(getLang, { cookies: { ...sessionCookies(cookie), NEXT_LOCALE: 'de' } })).json).toEqual({
      lang: 'zh-tw',
    });
  });

  it("without cookie or user, the browser's language is used", async () => {
    expect((await call(getLang, { headers: { 'accept-language': 'nl-BE,nl;q=0.9' } })).json).toEqual({ lang: 'nl' });
    expect((await call(getLang)).json).toEqual({ lang: 'en' });
  });

  it('a revoked session (raised session version) counts as a guest and changes nothing', async () => {
    const { user, cookie } = await createUser({ lang: 'en' });
    const db = await getDb();
    await db.update(users).set({ sessionVersion: 2 }).where(eq(users.id, user.id));
    await call(postLang, { body: { lang: 'el' }, cookies: sessionCookies(cookie) });
    const [saved] = await db.select({ lang: users.lang }).from(users).where(eq(users.id, user.id));
    expect(saved?.lang).toBe('en');
  });

  it('a forged session cookie counts as a guest', async () => {
    const answer = await call(getLang, { cookies: { enclave_session: 'Fe26.2**forged' } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ lang: 'en' });
  });
});
