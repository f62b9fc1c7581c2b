import { z } from 'zod';
import { apiRoute } from '@/lib/api/handler';
import { ApiError } from '@/lib/errors';
import { closeDb } from '@/lib/db/client';
import { POST as postLang } from '@/app/api/lang/route';
import { FORWARDED_HOST_HEADER, FORWARDED_PROTO_HEADER, PEER_HEADER } from '@/lib/security/client-address';
import { call, createUser, sessionCookies } from '../support/api';

// Loopback is the reverse proxy here (read when the first request needs it).
process.env.TRUSTED_PROXIES = '127.0.0.1';
afterAll(() => closeDb());

describe('docs/design.md API conventions: the error envelope', () => {
  it.each([
    { name: 'invalid JSON', body: '{"lang": ', code: 'incorrect_data' },
    { name: 'a JSON array', body: '[1,2]', code: 'incorrect_data' },
    { name: 'a wrong type', body: { lang: 5 }, code: 'incorrect_data' },
    { name: 'an unknown value', body: { lang: 'ja' }, code: 'incorrect_data' },
    { name: 'a missing field', body: {}, code: 'missing_data' },
    { name: 'an empty body', body: '', code: 'missing_data' },
    { name: 'null', body: 'null', code: 'incorrect_data' },
  ])('$name answers 400 with $code and an English message', async ({ body, code }) => {
    const answer = await call(postLang, { body });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: 'error', errorCode: code, message: expect.any(String) });
    expect(answer.text).not.toMatch(/at .*\(|node_modules|stack/i);
  });

  it('the message follows the guest language cookie', async () => {
    const english = await call(postLang, { body: { lang: 5 } });
    const german = await call(postLang, { body: { lang: 5 }, cookies: { NEXT_LOCALE: 'de' } });
    expect(german.json.errorCode).toBe('incorrect_data');
    expect(german.json.message).not.toBe(english.json.message);
  });

  it('the message follows Accept-Language when there is no cookie', async () => {
    const english = await call(postLang, { body: { lang: 5 } });
    const polish = await call(postLang, { body: { lang: 5 }, headers: { 'accept-language': 'pl-PL,pl;q=0.9' } });
    expect(polish.json.message).not.toBe(english.json.message);
  });

  it('a logged-in user gets messages in the language saved to the account', async () => {
    const { cookie } = await createUser({ lang: 'fr' });
    const english = await call(postLang, { body: { lang: 5 } });
    const french = await call(postLang, { body: { lang: 5 }, cookies: { ...sessionCookies(cookie), NEXT_LOCALE: 'en' } });
    expect(french.json.message).not.toBe(english.json.message);
  });

  it('refuses a body larger than 64 KiB with 413 and nothing else', async () => {
    const answer = await call(postLang, { body: { lang: 'de', padding: 'x'.repeat(70 * 1024) } });
    expect(answer.status).toBe(413);
    expect(answer.json.errorCode).toBe('incorrect_data');
  });
});

describe('docs/design.md security: state-changing requests from another origin are refused', () => {
  it.each([
    ['another site', 'https://evil.example'],
    ['a missing Origin', null],
    ['a "null" Origin', 'null'],
    ['a look-alike port', 'http://localhost:3001'],
  ])('%s → 403', async (_name, origin) => {
    const answer = await call(postLang, { body: { lang: 'de' }, origin });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ status: 'error', errorCode: 'authentication_error' });
    expect(answer.headers.get('set-cookie') ?? '').not.toContain('NEXT_LOCALE=de');
  });

  it("the app's own origin is accepted", async () => {
    const answer = await call(postLang, { body: { lang: 'de' } });
    expect(answer.status).toBe(200);
  });

  it('the origin a trusted proxy forwarded is accepted', async () => {
    const answer = await call(postLang, {
      body: { lang: 'de' },
      origin: 'https://meet.example.org',
      headers: { [PEER_HEADER]: '127.0.0.1', [FORWARDED_HOST_HEADER]: 'meet.example.org', [FORWARDED_PROTO_HEADER]: 'https' },
    });
    expect(answer.status).toBe(200);
  });

  // Issue 32, item 6: the client's own Host and X-Forwarded-Host are not believed.
  it.each([
    ['a Host the client chose', { host: 'evil.example:4101' }, 'http://evil.example:4101'],
    [
      'a forwarded host from a peer that is no trusted proxy',
      { [PEER_HEADER]: '203.0.113.9', [FORWARDED_HOST_HEADER]: 'evil.example', [FORWARDED_PROTO_HEADER]: 'https' },
      'https://evil.example',
    ],
    [
      'a forwarded host without a peer (no proxy in front)',
      { [FORWARDED_HOST_HEADER]: 'evil.example', [FORWARDED_PROTO_HEADER]: 'https' },
      'https://evil.example',
    ],
    // Next.js fills in X-Forwarded-Host from the Host header: that one proves nothing.
    [
      'the X-Forwarded-Host Next.js writes from the Host header',
      { [PEER_HEADER]: '127.0.0.1', host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      'https://evil.example',
    ],
  ])('%s → 403', async (_name, headers, origin) => {
    const answer = await call(postLang, { body: { lang: 'de' }, origin, headers });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('link')).toBeNull();
  });

  it('the local trial answers its other loopback names (127.0.0.1, [::1]) on its port', async () => {
    for (const origin of ['http://127.0.0.1:3000', 'http://[::1]:3000']) {
      expect((await call(postLang, { body: { lang: 'de' }, origin, headers: { host: '127.0.0.1:3000' } })).status).toBe(200);
    }
    expect((await call(postLang, { body: { lang: 'de' }, origin: 'http://127.0.0.1:3001' })).status).toBe(403);
  });
});

describe('the wrapper never leaks internals', () => {
  const failing = apiRoute({ auth: 'none' }, () => {
    throw new Error('database password is hunter2');
  });

  it('an unexpected error answers error_contact_us with a request id, no message or stack', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    const answer = await call(failing);
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ status: 'error', errorCode: 'error_contact_us', requestId: expect.any(String) });
    expect(answer.text).not.toContain('hunter2');
    // …but the log has what an operator needs, under the same request id.
    expect(spy.mock.calls.join('\n')).toContain(String(answer.json.requestId));
    spy.mockRestore();
  });

  it('a domain error answers its code with the mapped status', async () => {
    const notFound = apiRoute({ auth: 'none' }, () => {
      throw new ApiError('room_not_found');
    });
    const conflict = apiRoute({ auth: 'none' }, () => {
      throw new ApiError('contact_exists');
    });
    expect((await call(notFound)).status).toBe(404);
    expect((await call(conflict)).status).toBe(409);
  });

  it('a schema names the error code of its rule', async () => {
    const route = apiRoute({ auth: 'none', body: z.object({ name: z.string().min(5, 'room_title_length') }) }, () => ({}));
    const answer = await call(route, { body: { name: 'abc' } });
    expect(answer.json).toMatchObject({ errorCode: 'room_title_length', field: 'name' });
  });

  it('auth "required" answers 401 authentication_error without a session', async () => {
    const route = apiRoute({ auth: 'required' }, ({ user }) => ({ id: user.id }));
    const answer = await call(route);
    expect(answer.status).toBe(401);
    expect(answer.json.errorCode).toBe('authentication_error');
  });

  it('a POST that succeeds answers status ok; a GET answers the resource itself', async () => {
    const post = apiRoute({ auth: 'none' }, () => ({ id: 7 }));
    const get = apiRoute({ auth: 'none' }, () => [1, 2]);
    expect((await call(post, { method: 'POST' })).json).toEqual({ status: 'ok', id: 7 });
    expect((await call(get)).json).toEqual([1, 2]);
    expect((await call(get)).headers.get('cache-control')).toBe('no-store');
  });
});
