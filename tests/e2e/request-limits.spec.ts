import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3210);

// Issue 32, items 6 and 7, through the real server (server/server.mjs, proxy.ts, Next.js): what
// a client writes in its address or its Host header does not come back in the answer's headers,
// and does not pass the Origin check.

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  headerBytes: number;
  body: string;
}

/** A request with exactly the headers given (a Host of the client's choosing too). */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: 'localhost', port, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          headerBytes: response.rawHeaders.reduce((sum, part) => sum + Buffer.byteLength(part) + 2, 0),
          body: text,
        }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

test.describe('what the client writes stays out of the answer', () => {
  test('an address longer than 4 KB is refused with 414, a page or a call', async () => {
    for (const path of [`/${'a'.repeat(15_000)}`, `/api/${'a'.repeat(5_000)}`, `/de/login?x=${'b'.repeat(5_000)}`]) {
      const answer = await raw('GET', path, { 'accept-language': 'de' });
      expect([path.slice(0, 8), answer.status]).toEqual([path.slice(0, 8), 414]);
      expect(answer.headerBytes).toBeLessThan(2_000);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 'error', errorCode: 'incorrect_data', message: expect.stringMatching(/\S/) });
    }
  });

  test('an unknown path just under the limit answers 404, its headers holding it once at most', async () => {
    const path = `/${'a'.repeat(4_000)}`;
    const answer = await raw('GET', path);
    expect(answer.status).toBe(404);
    // Next.js's x-middleware-rewrite names the path once; the hreflang Link header named it twelve times.
    expect(answer.headerBytes).toBeLessThan(path.length + 3_000);
    // Next.js may preload a stylesheet there; no hreflang alternates, no path.
    expect(String(answer.headers.link ?? '')).not.toMatch(/hreflang|aaaa/);
  });

  test('a Host of the client\'s choosing is neither echoed nor believed by the Origin check', async () => {
    const page = await raw('GET', '/login', { host: 'evil.example:4101' });
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.headers)).not.toContain('evil.example');

    const body = JSON.stringify({ lang: 'de' });
    const forged = await raw('POST', '/api/lang', { host: 'evil.example:4101', origin: 'http://evil.example:4101', 'content-type': 'application/json' }, body);
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.body)).toMatchObject({ errorCode: 'authentication_error' });
    // The browsers' loopback stands in for a trusted proxy here (TRUSTED_PROXIES=127.0.0.1, ::1):
    // a forwarded host is believed from it, and the Origin that names it passes.
    const proxied = await raw('POST', '/api/lang', { 'x-forwarded-host': 'meet.example.org', 'x-forwarded-proto': 'https', origin: 'https://meet.example.org', 'content-type': 'application/json' }, body);
    expect(proxied.status).toBe(200);
  });
});
