// The server layer's own parts (server/, docs/architecture.md "The server layer and its seam"):
// it runs the fast paths the app registers on the seam, and refuses what must not reach Next.js
// with the app's headers and the app's choice of language.
import path from 'node:path';
import { Readable } from 'node:stream';
import { answerFast, fastPathFor } from '@/server/fast-paths.mjs';
import { refusals } from '@/server/refusals.mjs';
import { closedAnswerHeaders } from '@/lib/security/base-headers.mjs';
import { FAST_PATHS, putOnSeam, type FastPath } from '@/lib/server-seam/seam.mjs';
import { apiPolicy } from '@/lib/security/csp';

const root = path.resolve(__dirname, '..', '..');
const messages = (locale: string) => jest.requireActual(`../../messages/${locale}.json`).Errors.incorrect_data as string;

/** A request as Node's server hands it over: a readable body with the request line and headers. */
function request(method: string, url: string, body?: Buffer, headers: Record<string, string> = {}) {
  return Object.assign(Readable.from(body ? [body] : []), { method, url, headers });
}

function response() {
  const written: { status?: number; headers?: Record<string, string>; body?: unknown; destroyed?: boolean } = {};
  return {
    written,
    writeHead: (status: number, headers: Record<string, string>) => Object.assign(written, { status, headers }),
    end: (body?: unknown) => Object.assign(written, { body }),
    destroy: () => Object.assign(written, { destroyed: true }),
  };
}

const fastPath = (overrides: Partial<FastPath>): FastPath => ({ name: 'test', matches: () => true, answer: async () => null, ...overrides });

describe('the fast paths, as server/server.mjs runs them', () => {
  afterEach(() => putOnSeam(FAST_PATHS, []));

  it('finds the first registered fast path that matches, none before the app registered any', () => {
    putOnSeam(FAST_PATHS, undefined as never);
    expect(fastPathFor(request('GET', '/x'))).toBeUndefined();
    const posts = fastPath({ name: 'posts', matches: ({ method }) => method === 'POST' });
    const all = fastPath({ name: 'all' });
    putOnSeam(FAST_PATHS, [posts, all]);
    expect(fastPathFor(request('POST', '/x'))?.name).toBe('posts');
    expect(fastPathFor(request('GET', '/x'))?.name).toBe('all');
  });

  it('writes the answer as it is, with the body read up to the limit', async () => {
    let seen: Buffer | undefined;
    const echo = fastPath({
      maxBodyBytes: 4,
      answer: async ({ body }) => ((seen = body), { status: 201, headers: { 'X-Test': '1' }, body: Buffer.from('ok') }),
    });
    const answer = response();
    await answerFast(echo, request('POST', '/x', Buffer.from('0123456789')), answer, () => {});
    expect(seen?.length).toBeGreaterThan(4); // the limit and more: the handler sees it too long
    expect(answer.written).toEqual({ status: 201, headers: { 'X-Test': '1' }, body: Buffer.from('ok') });
  });

  it('leaves a request to Next.js when the fast path answers null and read no body', async () => {
    const next = jest.fn();
    await answerFast(fastPath({}), request('GET', '/x'), response(), next);
    expect(next).toHaveBeenCalledTimes(1);
  });

  it('answers 500 with the closed headers when the fast path throws, or passes on a body it read', async () => {
    for (const broken of [fastPath({ answer: async () => Promise.reject(new Error('boom')) }), fastPath({ maxBodyBytes: 10 })]) {
      const answer = response();
      const next = jest.fn();
      await answerFast(broken, request('POST', '/x', Buffer.from('{}')), answer, next);
      expect(next).not.toHaveBeenCalled();
      expect(answer.written.status).toBe(500);
      expect(answer.written.headers).toMatchObject({ ...closedAnswerHeaders, 'Content-Type': 'application/json' });
      expect(JSON.parse(String(answer.written.body))).toEqual({ status: 'error', errorCode: 'error_contact_us' });
    }
  });
});

describe('what the server layer refuses before Next.js', () => {
  const refused = refusals(root);

  it('an address over 4 KB: 414, closed, in the language the app would choose', () => {
    const answer = response();
    // The app's negotiation weighs q= (the server's own parser took the first tag it knew).
    expect(refused(request('GET', `/${'a'.repeat(5_000)}`, undefined, { 'accept-language': 'de;q=0.1, fr' }), answer)).toBe(true);
    expect(answer.written.status).toBe(414);
    expect(answer.written.headers).toMatchObject({
      'Content-Security-Policy': apiPolicy,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      Connection: 'close',
    });
    expect(JSON.parse(String(answer.written.body))).toEqual({ status: 'error', errorCode: 'incorrect_data', message: messages('fr') });
  });

  it('a malformed path: 400 for the API, the not-found page for a page, nothing for the rest', () => {
    const api = response();
    expect(refused(request('GET', '/api/room/%E2%82'), api)).toBe(true);
    expect([api.written.status, JSON.parse(String(api.written.body)).message]).toEqual([400, messages('en')]);
    const page = request('GET', '/de/%');
    expect(refused(page, response())).toBe(false);
    expect(page.url).toBe('/__malformed-path');
    const fine = request('GET', '/de/login?x=%20');
    expect(refused(fine, response())).toBe(false);
    expect(fine.url).toBe('/de/login?x=%20');
  });
});
