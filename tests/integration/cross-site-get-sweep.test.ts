import { readFileSync } from 'node:fs';
import path from 'node:path';
import { count, eq, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { closeDb, getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { users } from '@/lib/db/schema';
import { openSecret } from '@/lib/security/data-key';
import { PENDING_SETUP_SECONDS } from '@/lib/auth/totp';
import { GET as twoFactorSetup } from '@/app/2fa/g2f/setup/route';
import { GET as me } from '@/app/api/me/route';
import { call, createUser, sessionCookies } from '../support/api';
import { appDir, routeFiles, routePath, type Handler } from '../support/routes';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

// Issue 32, item 5: GETs with side effects (a Stripe SetupIntent per call, a new TOTP secret per
// call) could be started by any other site's <img> or link, with the person's cookie. A standing
// sweep generated from the route files: every GET handler, called logged in with fetch metadata
// saying another site started it, is refused (403, the error envelope, no-store) and changes
// nothing — except the short allow-list below, of routes that read no session and change nothing
// for the caller, which other sites and mail links legitimately reach (docs/security.md).
const CROSS_SITE_ALLOWED: Record<string, string> = {
  'api/health/route.ts': 'monitors and status pages',
  'api/avatar/[avatar]/route.ts': 'an image, by its random id',
  'api/calendar/feed/[token]/route.ts': 'calendar apps and links to the feed',
  'invitation/activate/route.ts': "the activation mail's link, opened from a webmail page (a wrong token counts against the client's attempts)",
  '.well-known/enclave/build.json/route.ts': "the build's manifest (issue 47), which anyone may compare with a build of the same commit",
  '.well-known/enclave/release.json/route.ts': "the manifest's hash and its publisher's signature (issue 47), which the service worker and anyone may read",
  'invitation/confirm-email/route.ts':
    "the link mailed to a new e-mail address, opened from a webmail page (a wrong token counts against the client's attempts)",
  'api/auth/oidc/[provider]/callback/route.ts':
    "an OpenID provider's redirect back (issue 35): only a state equal to the one in this browser's sealed cookie finishes a sign-in; the attempt counts per client",
};

// Route handlers that do not go through apiRoute: static images, which read no session, and
// GET /logout, whose own check (lib/auth/logout.ts) goes Home and ends nothing.
const OUTSIDE_API_ROUTE: Record<string, string> = {
  'apple-touch-icon.png/route.ts': 'a static icon',
  'favicon.ico/route.ts': 'a static icon',
  'icon-192.png/route.ts': 'a static icon',
  'icon-512.png/route.ts': 'a static icon',
  'icon-maskable-512.png/route.ts': 'a static icon',
  'icon.svg/route.ts': 'a static icon',
  'og-image.png/route.tsx': 'the link preview image',
  'logout/route.ts': 'back to Home, the session still counts',
};

const params = { provider: 'x', id: 'x', hash: 'x', email: 'x@example.test', avatar: 'x', link: 'x', token: 'x', attachmentId: 'x', rest: ['x', 'y'] as never };

/** Rows per table, and the caller's own row: what a refused request must leave as it was. */
async function snapshot(userId: string) {
  const db = await getDb();
  const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
  const counts: Record<string, number> = {};
  for (const table of tables) counts[getTableName(table)] = (await db.select({ n: count() }).from(table))[0]!.n;
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return { counts, user: row };
}

const figures = { routes: 0, handlers: 0, requests: 0, refused: 0, allowed: 0 };

describe('every GET refuses a request another site started', () => {
  it('finds the GET handlers (the sweep is not empty), and the allow-list is what the routes declare', () => {
    const declaring = routeFiles.filter((file) => /crossSiteGet:\s*true/.test(readFileSync(path.join(appDir, file), 'utf8')));
    expect(declaring.sort()).toEqual(Object.keys(CROSS_SITE_ALLOWED).sort());
    expect(routeFiles).toEqual(expect.arrayContaining(['billing/upgrade/secret/route.ts', '2fa/g2f/setup/route.ts']));
  });

  it.each(routeFiles)('%s', async (file) => {
    const loaded = (await import(`@/app/${file.replace(/\.tsx?$/, '')}`)) as Record<string, unknown>;
    figures.routes += 1;
    if (typeof loaded.GET !== 'function') return;
    figures.handlers += 1;
    const handler = loaded.GET as Handler;
    // An admin: the admin area's GETs are swept as far as they go for anyone.
    const { user, cookie } = await createUser({ role: 'admin' });
    for (const site of ['cross-site', 'same-site']) {
      figures.requests += 1;
      const before = await snapshot(user.id);
      const answer = await call(handler, {
        path: `${routePath(file)}?token=x&start=0&end=1`,
        cookies: sessionCookies(cookie),
        headers: { 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
        params,
      });
      const after = await snapshot(user.id);
      if (file === 'invitation/activate/route.ts' || file === 'api/auth/oidc/[provider]/callback/route.ts') {
        // Its attempts are counted per client, whoever starts them: no data of the caller's.
        expect(after.counts.rate_limits).toBeLessThanOrEqual(before.counts.rate_limits! + 1);
        after.counts.rate_limits = before.counts.rate_limits!;
      }
      expect(after).toEqual(before);
      if (file in OUTSIDE_API_ROUTE) {
        figures.allowed += 1;
        expect(answer.status).toBeLessThan(400);
        if (file === 'logout/route.ts') expect(new URL(answer.headers.get('location')!).pathname).toBe('/');
        continue;
      }
      if (file in CROSS_SITE_ALLOWED) {
        figures.allowed += 1;
        expect([file, answer.status]).not.toEqual([file, 403]);
        // Before the build (Jest runs first in npm test) there is no manifest to publish: the catalogue's 503.
        if (file.startsWith('.well-known/enclave/') && answer.status === 503) expect(answer.json).toMatchObject({ errorCode: 'service_unavailable' });
        else expect(answer.status).toBeLessThan(500);
        continue;
      }
      figures.refused += 1;
      expect([file, site, answer.status]).toEqual([file, site, 403]);
      expect(answer.json).toMatchObject({ status: 'error', errorCode: 'authentication_error' });
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('the app’s own pages, an address typed in and non-browsers (no fetch metadata) are answered', async () => {
    const { cookie } = await createUser();
    for (const headers of [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, {}] as Record<string, string>[]) {
      const answer = await call(me, { cookies: sessionCookies(cookie), headers });
      expect([headers, answer.status]).toEqual([headers, 200]);
    }
  });

  afterAll(() => {
    // The figures docs/security.md records.
    console.log(`cross-site GET sweep: ${JSON.stringify(figures)}`);
  });
});

describe('GET /2fa/g2f/setup is safe to repeat', () => {
  const storedSecret = async (userId: string) => {
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    return openSecret(row!.totpSecret!, userId);
  };

  it('answers the same secret (and QR code) until it expires; another site’s request changes nothing', async () => {
    const { user, cookie } = await createUser();
    const first = await call(twoFactorSetup, { cookies: sessionCookies(cookie), headers: { 'sec-fetch-site': 'same-origin' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    const secret = await storedSecret(user.id);

    const again = await call(twoFactorSetup, { cookies: sessionCookies(cookie) });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(await storedSecret(user.id)).toBe(secret);

    const forged = await call(twoFactorSetup, { cookies: sessionCookies(cookie), headers: { 'sec-fetch-site': 'cross-site' } });
    expect([forged.status, forged.json.errorCode]).toEqual([403, 'authentication_error']);
    expect(await storedSecret(user.id)).toBe(secret);

    // A set-up left for longer than PENDING_SETUP_SECONDS starts over with a fresh secret.
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    await db
      .update(users)
      .set({ totpLastStep: row!.totpLastStep! - PENDING_SETUP_SECONDS / 30 })
      .where(eq(users.id, user.id));
    const later = await call(twoFactorSetup, { cookies: sessionCookies(cookie) });
    expect(later.status).toBe(200);
    expect(later.text).not.toBe(first.text);
    expect(await storedSecret(user.id)).not.toBe(secret);
  });

  it('two requests at once answer one secret', async () => {
    const { user, cookie } = await createUser();
    const [a, b] = await Promise.all([call(twoFactorSetup, { cookies: sessionCookies(cookie) }), call(twoFactorSetup, { cookies: sessionCookies(cookie) })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.text).toBe(b.text);
    expect(await storedSecret(user.id)).toBeTruthy();
  });
});
