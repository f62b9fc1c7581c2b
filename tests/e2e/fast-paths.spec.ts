// Issue 37: a fast path is optional (docs/decisions.md, "A fast path is optional"): the route
// answers the same without it. The server `npm start` runs (server/server.mjs, which answers the
// fast paths itself) and plain `next start` (which has none), on one build and one database, are
// asked the same requests of every fast path (lib/fast-paths.ts): the status, the
// body and the headers a client acts on must agree. A new fast path needs its cases here.
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { MAX_SIGNAL_BODY_BYTES } from '../../lib/meeting/protocol';
import { createDatabase, extraPort, seed, startInstance, type Instance } from './support/instances';

test.describe.configure({ timeout: 240_000 });

interface Ask {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as the client reads it: gunzipped, parsed when it is JSON. */
  body: unknown;
}

// What a client acts on. The transfer is left out — Content-Encoding, Content-Length and Vary's
// Accept-Encoding, which go together: the calendar's fast path gzips once per version and names
// Accept-Encoding on its 304 too, signaling's never compresses; Next.js decides per answer.
const COMPARED_HEADERS = [
  'content-type',
  'cache-control',
  'etag',
  'vary',
  'retry-after',
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
  'permissions-policy',
  'strict-transport-security',
];

/** One request with exactly these headers (and Origin: the instance's own unless given). */
function ask(instance: Instance, { method, path, headers = {}, body }: Ask): Promise<Answer> {
  const { port } = new URL(instance.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: 'localhost', port, method, path, headers: { origin: instance.url, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        let bytes = Buffer.concat(chunks);
        if (response.headers['content-encoding'] === 'gzip') bytes = gunzipSync(bytes);
        const text = bytes.toString('utf8');
        const json = /json/.test(response.headers['content-type'] ?? '');
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: json && text ? JSON.parse(text) : text });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** What must agree between the two servers. */
function comparable(answer: Answer) {
  const vary = (value: unknown) =>
    String(value ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => part && part !== 'accept-encoding')
      .sort();
  const headers = Object.fromEntries(COMPARED_HEADERS.map((name) => [name, name === 'vary' ? vary(answer.headers[name]) : answer.headers[name]]));
  return { status: answer.status, body: answer.body, headers };
}

const now = Math.floor(Date.now() / 1000);
const calendar = (form: string) => `/api/events/calendar?start=${now}&end=${now + 30 * 86_400}&form=${form}`;

/** Each fast path's requests: those it answers and those it passes on, with the session's cookie. */
function casesFor(cookie: string, meetingId: string, calendarTag: string): Record<string, { name: string; ask: Ask }[]> {
  const signal = `/api/meeting/${meetingId}/signal`;
  const json = { 'content-type': 'application/json' };
  const message = JSON.stringify({ type: 'signal', to: 'someone', envelope: 'x' });
  return {
    calendar: [
      { name: 'compact, gzip', ask: { method: 'GET', path: calendar('compact'), headers: { cookie, 'accept-encoding': 'gzip' } } },
      {
        name: 'compact, revalidated',
        ask: { method: 'GET', path: calendar('compact'), headers: { cookie, 'accept-encoding': 'gzip', 'if-none-match': calendarTag } },
      },
      { name: 'compact, no gzip', ask: { method: 'GET', path: calendar('compact'), headers: { cookie } } },
      { name: 'full form', ask: { method: 'GET', path: calendar('full'), headers: { cookie, 'accept-encoding': 'gzip' } } },
      { name: 'no session', ask: { method: 'GET', path: calendar('compact'), headers: { 'accept-encoding': 'gzip' } } },
      {
        name: 'another site',
        ask: { method: 'GET', path: calendar('compact'), headers: { cookie, 'accept-encoding': 'gzip', 'sec-fetch-site': 'cross-site' } },
      },
    ],
    signal: [
      { name: 'no token', ask: { method: 'POST', path: signal, headers: json, body: message } },
      {
        name: 'a forged token, in German',
        ask: { method: 'POST', path: signal, headers: { ...json, authorization: 'Bearer forged', 'accept-language': 'de' }, body: message },
      },
      { name: 'another origin', ask: { method: 'POST', path: signal, headers: { ...json, origin: 'https://evil.example' }, body: message } },
      { name: 'not JSON', ask: { method: 'POST', path: signal, headers: { ...json, authorization: 'Bearer forged' }, body: '{"type":' } },
      { name: 'too large', ask: { method: 'POST', path: signal, headers: json, body: Buffer.alloc(MAX_SIGNAL_BODY_BYTES + 1, 'x') } },
      { name: 'an unknown meeting', ask: { method: 'POST', path: '/api/meeting/no-such-meeting/signal', headers: json, body: message } },
    ],
  };
}

test('every fast path answers what the route answers without it (server/server.mjs against next start)', async () => {
  const database = await createDatabase();
  const env = { DATABASE_URL: database.url };
  let withFastPaths: Instance | undefined;
  let without: Instance | undefined;
  try {
    [withFastPaths, without] = await Promise.all([startInstance(extraPort(60), env, { server: 'production' }), startInstance(extraPort(61), env)]);
    expect(withFastPaths.output()).toContain('Enclave listening');
    expect(without.output()).not.toContain('Enclave listening');

    const email = `fast-paths-${Date.now()}@enclave.local`;
    const { meetingId } = seed(env, email);
    const login = await ask(withFastPaths, {
      method: 'POST',
      path: '/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Demo-Meeting-2026' }),
    });
    expect(login.status).toBe(200);
    const setCookie = ([] as string[]).concat(login.headers['set-cookie'] ?? []);
    const cookie = setCookie.map((line) => line.split(';')[0]!).find((pair) => pair.startsWith('enclave_session='))!;
    expect(cookie).toBeTruthy();

    const tag = (await ask(withFastPaths, { method: 'GET', path: calendar('compact'), headers: { cookie } })).headers.etag;
    expect(typeof tag).toBe('string');
    const cases = casesFor(cookie, meetingId, String(tag));
    expect(Object.keys(cases).sort()).toEqual(['calendar', 'signal']); // lib/fast-paths.ts
    for (const [fastPath, list] of Object.entries(cases)) {
      for (const { name, ask: one } of list) {
        const fast = await ask(withFastPaths, one);
        const route = await ask(without, one);
        expect(comparable(fast), `${fastPath}: ${name}`).toEqual(comparable(route));
        if (fast.headers['content-encoding'] === 'gzip') expect(String(fast.headers.vary), `${fastPath}: ${name}`).toMatch(/accept-encoding/i);
      }
    }
    // The fast path did answer (the comparison would prove nothing otherwise): it gzips the compact
    // body once per version and sends its length, where Next.js compresses as it streams (chunked).
    const [compact, revalidated] = cases.calendar!;
    const viaFastPath = await ask(withFastPaths, compact!.ask);
    const viaNext = await ask(without, compact!.ask);
    expect([viaFastPath.headers['content-encoding'], viaNext.headers['content-encoding']]).toEqual(['gzip', 'gzip']);
    expect([viaFastPath.headers['content-length'] !== undefined, viaNext.headers['transfer-encoding']]).toEqual([true, 'chunked']);
    expect((await ask(withFastPaths, revalidated!.ask)).status).toBe(304);
  } finally {
    await withFastPaths?.stop();
    await without?.stop();
    await database.drop();
  }
});
