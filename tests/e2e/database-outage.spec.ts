// Issue 20, "Database faults": a logged-in page while PostgreSQL cannot be reached answers 503
// with Retry-After and a translated page that tries again by itself — not Next.js's 500 — and a
// page that fails for another reason still answers 500. The real server (server/server.mjs, as
// `npm start` runs it) on a real PostgreSQL, reached through a relay the test cuts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, request as http, test, type APIRequestContext } from '@playwright/test';
import postgres from 'postgres';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../lib/db/unavailable';
import { startDatabaseRelay } from './support/database-relay';
import { createDatabase, extraPort, seed, startInstance } from './support/instances';

test.describe.configure({ timeout: 240_000 });

const messages = (locale: string) => JSON.parse(readFileSync(path.join(process.cwd(), 'messages', `${locale}.json`), 'utf8'));
const unavailable = (locale: string): Record<string, string> => messages(locale).Unavailable;
const fr = (namespace: string): Record<string, string> => messages('fr')[namespace];
const stackTrace = /\n\s+at \S+ \(|node_modules|webpack|turbopack|\.tsx?:\d+/;

async function page(api: APIRequestContext, url: string) {
  const answer = await api.get(url, { timeout: 30_000 });
  return { status: answer.status(), headers: answer.headers(), text: await answer.text() };
}

test('a logged-in page answers 503 with Retry-After while the database is down, retries by itself, and other failures stay 500', async ({ browser }) => {
  const database = await createDatabase();
  const relay = await startDatabaseRelay(database.url, extraPort(13));
  const env = { DATABASE_URL: relay.url, TRUSTED_PROXIES: '127.0.0.1' };
  const instance = await startInstance(extraPort(12), env, { server: 'production' });
  const direct = postgres(database.url, { max: 1, onnotice: () => undefined });
  let api: APIRequestContext | undefined;
  try {
    const email = `outage-${Date.now()}@enclave.local`;
    const { meetingId } = seed({ DATABASE_URL: database.url }, email);
    api = await http.newContext({ baseURL: instance.url, extraHTTPHeaders: { origin: instance.url } });
    expect((await api.post('/login', { data: { email, password: 'Demo-Meeting-2026' } })).status()).toBe(200);
    expect((await page(api, '/calendar')).status).toBe(200);

    await relay.cut();
    const english = unavailable('en');
    const french = unavailable('fr');
    for (const [url, text] of [
      ['/calendar', english],
      ['/fr/calendar', french],
      ['/', english],
      [`/now/${meetingId}`, english],
    ] as const) {
      const answer = await page(api, url);
      expect([url, answer.status]).toEqual([url, 503]);
      expect(answer.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      expect(answer.headers['content-type']).toContain('text/html');
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.text).toContain(text.title);
      expect(answer.text).toContain(text.retrying);
      expect(answer.text).not.toMatch(stackTrace);
    }
    // The line names the request it failed (lib/request-context.ts), as every line of a request does.
    expect(instance.output()).toMatch(
      /"message":"database unavailable","requestId":"[\w-]+","code":"(ECONNREFUSED|CONNECTION_CLOSED|CONNECTION_ENDED|ECONNRESET)"/,
    );

    // In a browser: the French page, which loads the calendar by itself once the database is back.
    const context = await browser.newContext({ storageState: await api.storageState() });
    const tab = await context.newPage();
    const answered: number[] = [];
    tab.on('response', (response) => {
      const document = response.request().resourceType() === 'document';
      if (document && new URL(response.url()).pathname === '/fr/calendar') answered.push(response.status());
    });
    await tab.goto(`${instance.url}/fr/calendar`);
    await expect(tab.getByRole('heading', { name: french.title })).toBeVisible();
    await relay.restore();
    await expect(tab.getByRole('heading', { name: french.title })).toHaveCount(0, { timeout: 30_000 });
    await expect(tab.getByTestId('calendar-meetings')).toBeVisible();
    expect(answered[0]).toBe(503);
    expect(answered.at(-1)).toBe(200);
    // Waits that grow (5 s, then 10 s…): a handful of reloads at most, not a loop.
    expect(answered.length).toBeLessThanOrEqual(4);
    // A navigation inside the app (the router fetches the next page's payload) lands on it too.
    await relay.cut();
    const nav = fr('Nav');
    await tab.getByRole('navigation', { name: nav.mainNavigation }).first().getByRole('link', { name: nav.schedule }).click();
    await expect(tab.getByRole('heading', { name: french.title })).toBeVisible();
    await relay.restore();
    await context.close();

    // A failure that is not an unreachable database (here a table gone) is still Next.js's 500.
    await direct`alter table rooms rename to rooms_gone`;
    try {
      const broken = await page(api, '/calendar');
      expect(broken.status).toBe(500);
      expect(broken.headers['retry-after']).toBeUndefined();
      expect(broken.text).not.toContain(english.title);
    } finally {
      await direct`alter table rooms_gone rename to rooms`;
    }
    expect((await page(api, '/calendar')).status).toBe(200);
  } finally {
    await api?.dispose();
    await direct.end();
    await instance.stop();
    await relay.cut();
    await database.drop();
  }
});
