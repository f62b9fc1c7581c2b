import { expect, test } from '@playwright/test';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { messages } from './support/messages';
import { logIn } from './support/session';

test.describe('security headers on every response', () => {
  test('pages carry a nonce-based CSP and every script uses the nonce', async ({ request }) => {
    const response = await request.get('/login');
    const headers = response.headers();
    const csp = headers['content-security-policy'] ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("'strict-dynamic'");
    expect(csp).not.toContain('unsafe-eval');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['strict-transport-security']).toContain('max-age=');
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    // A fresh nonce per request.
    const again = (await request.get('/login')).headers()['content-security-policy'];
    expect(again).not.toBe(csp);
  });

  test('the page runs under its CSP without violations', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto('/faq');
    await page.getByRole('link', { name: 'Log in' }).first().click();
    await expect(page).toHaveURL(/\/login$/);
    expect(violations).toEqual([]);
  });

  test('API answers carry a closed CSP, nosniff and no-store', async ({ request }) => {
    const response = await request.get('/api/health');
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', db: 'ok' });
    const headers = response.headers();
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['strict-transport-security']).toContain('max-age=');
  });

  test('static assets carry nosniff and a CSP too', async ({ request }) => {
    const html = await (await request.get('/login')).text();
    const asset = /src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const headers = (await request.get(asset!)).headers();
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-security-policy']).toContain("default-src 'none'");
  });

  test('a state-changing request from another origin is refused', async ({ request }) => {
    const response = await request.post('/api/lang', { data: { lang: 'de' }, headers: { origin: 'https://evil.example' } });
    expect(response.status()).toBe(403);
    expect(await response.json()).toMatchObject({ status: 'error', errorCode: 'authentication_error' });
  });

  test('invalid JSON gets the error envelope over HTTP too', async ({ request, baseURL }) => {
    const response = await request.post('/api/lang', {
      data: '{"lang":',
      headers: { origin: baseURL!, 'content-type': 'application/json', 'accept-language': 'de' },
    });
    expect(response.status()).toBe(400);
    expect(await response.json()).toMatchObject({ status: 'error', errorCode: 'incorrect_data', message: expect.any(String) });
  });
});

// Issue 16, item 7: a path that does not decode answered 500 without any security header.
test.describe('malformed and unknown paths', () => {
  for (const path of ['/api/room/%E2%82', '/%', '/_next/static/%E2%82', '/de/calendar/%E2%82', '/api/%']) {
    test(`${path} answers 4xx with the security headers`, async ({ request }) => {
      const response = await request.get(path, { headers: { 'accept-language': 'de' } });
      expect(response.status()).toBeGreaterThanOrEqual(400);
      expect(response.status()).toBeLessThan(500);
      const headers = response.headers();
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['content-security-policy']).toBeTruthy();
      if (path.startsWith('/api/')) {
        expect(await response.json()).toMatchObject({ status: 'error', errorCode: 'incorrect_data', message: messages('de').Errors.incorrect_data });
      } else {
        expect(await response.text()).toContain(messages('de').NotFound.title);
      }
    });
  }

  test('an unknown /api/ path answers the JSON envelope (404), for every method', async ({ request, baseURL }) => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await request.fetch('/api/no/such/call', { method, headers: { origin: baseURL! } });
      expect(response.status(), method).toBe(404);
      expect(await response.json()).toMatchObject({ status: 'error', errorCode: 'incorrect_data' });
    }
  });
});

// Issue 16: the same sweep over every route file and page folder, as a browser would reach it.
test('every route and page, given a path that does not decode, answers 4xx with the security headers', async ({ request }) => {
  const appDir = path.join(process.cwd(), 'app');
  const folders = (readdirSync(appDir, { recursive: true }) as string[])
    .filter((file) => /(^|\/)(route\.tsx?|page\.tsx)$/.test(file))
    .map((file) =>
      `/${path.dirname(file)}`
        .replace(/\/\[locale\]/, '')
        .replace(/\/\([^)]+\)/g, '')
        .replace(/\[[^\]]+\]/g, 'x'),
    );
  const paths = [...new Set(folders)].map((folder) => `${folder === '/' ? '' : folder}/%E2%82`);
  expect(paths.length).toBeGreaterThan(60);
  let fiveHundreds = 0;
  for (const target of paths) {
    const response = await request.get(target, { maxRedirects: 0 });
    if (response.status() >= 500) fiveHundreds += 1;
    expect([target, response.status() >= 300 && response.status() < 500]).toEqual([target, true]);
    expect(response.headers()['x-content-type-options'], target).toBe('nosniff');
    expect(response.headers()['content-security-policy'], target).toBeTruthy();
  }
  console.log(`malformed-path sweep: ${paths.length} paths, ${fiveHundreds} answered 5xx`);
});

// Issue 32, item 8: the route's sandbox had been replaced by proxy.ts's policy on the way out.
test('a ticket attachment reaches the browser sandboxed, nosniff, as a download under its checked type', async ({ browser, baseURL }) => {
  const context = await browser.newContext();
  await logIn(context, baseURL!);
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000200', 'hex');
  const polyglot = Buffer.concat([png, Buffer.from('<html><script>alert(document.cookie)</script></html>')]);
  const opened = await context.request.post('/api/tickets', {
    headers: { origin: baseURL! },
    multipart: {
      subject: 'A picture of the problem',
      category: 'meetings',
      message: 'See the attached screenshot.',
      attachment: { name: 'poly.html', mimeType: 'text/html', buffer: polyglot },
    },
  });
  expect(opened.status()).toBe(200);
  const { id } = (await opened.json()) as { id: string };
  const detail = (await (await context.request.get(`/api/tickets/${id}`)).json()) as { messages: { attachments: { id: string; fileName: string }[] }[] };
  const file = detail.messages[0]!.attachments[0]!;
  expect(file.fileName).toBe('poly.png');

  // What the browser receives when it opens the file's address: a download, never a page.
  const page = await context.newPage();
  const url = `/api/tickets/${id}/attachments/${file.id}`;
  const answer = page.waitForResponse((response) => response.url().endsWith(url));
  const [download] = await Promise.all([page.waitForEvent('download'), page.goto(url).catch(() => null)]);
  expect(download.suggestedFilename()).toBe('poly.png');
  const headers = await (await answer).allHeaders();
  expect(headers['content-security-policy']).toMatch(/(^|; )sandbox($|;)/);
  expect(headers['content-security-policy']).toContain("default-src 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-type']).toBe('image/png');
  expect(headers['content-disposition']).toBe(`attachment; filename="poly.png"; filename*=UTF-8''poly.png`);
  // Every other API answer keeps the policy it had.
  expect((await context.request.get('/api/health')).headers()['content-security-policy']).not.toContain('sandbox');
  await context.close();
});

// Issue 32, item 5: a GET another site started is refused through the whole server, the
// calendar's fast path in server/server.mjs included; the app's own requests are answered.
test('a GET another site started is refused (403), also on the calendar fast path', async ({ browser, baseURL }) => {
  const context = await browser.newContext();
  await logIn(context, baseURL!);
  const now = Math.floor(Date.now() / 1000);
  const calendar = `/api/events/calendar?start=${now}&end=${now + 86_400}&form=compact`;
  for (const target of ['/2fa/g2f/setup', '/billing/upgrade/secret', '/api/me', calendar]) {
    const refused = await context.request.get(target, { headers: { 'sec-fetch-site': 'cross-site', 'accept-encoding': 'gzip' } });
    expect([target, refused.status()]).toEqual([target, 403]);
    expect(await refused.json()).toMatchObject({ status: 'error', errorCode: 'authentication_error' });
  }
  for (const target of ['/api/me', calendar]) {
    const answered = await context.request.get(target, { headers: { 'sec-fetch-site': 'same-origin', 'accept-encoding': 'gzip' } });
    expect([target, answered.status()]).toEqual([target, 200]);
  }
  expect((await context.request.get('/api/health', { headers: { 'sec-fetch-site': 'cross-site' } })).status()).toBe(200);
  await context.close();
});
