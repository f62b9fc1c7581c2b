// server/server.mjs hands every POST /api/meeting/{id}/signal to signalFastAnswer instead of
// Next.js (issue 17). It must answer what the route answers — the same handler, the same checks,
// errors in the same envelope and language — with the headers Next.js and proxy.ts would add.
import { closeDb, getDb } from '@/lib/db/client';
import { MAX_SIGNAL_BODY_BYTES } from '@/lib/meeting/protocol';
import { signalFastAnswer } from '@/lib/meeting-server/signal-fast-path';
import { releaseAll } from '@/lib/meeting-server/stream';
import { apiPolicy } from '@/lib/security/csp';
import { FAST_PATHS, fromSeam } from '@/lib/server-seam/seam.mjs';
import { registerFastPaths } from '@/lib/fast-paths';
import { createUser, ORIGIN } from '../support/api';
import { joined, makeRoom, openStream, send, type Stream } from '../support/meeting';

beforeAll(() => getDb(), 60_000);
afterAll(async () => {
  await releaseAll();
  await closeDb();
});

const streams: Stream[] = [];
afterEach(() => streams.splice(0).forEach((stream) => stream.close()));

async function twoInACall() {
  const { user } = await createUser({ isTrial: false });
  const meetingId = await makeRoom(user);
  const ada = await joined(meetingId, 'Ada');
  const bob = await joined(meetingId, 'Bob');
  // Both in the call (their streams open): only those admitted may signal.
  const adaStream = await openStream(meetingId, ada.token);
  const bobStream = await openStream(meetingId, bob.token);
  streams.push(adaStream, bobStream);
  await adaStream.next('welcome');
  await bobStream.next('welcome');
  return { meetingId, ada, bob, bobStream };
}

/** A POST as Node's parser hands it to the server layer. */
function fast(meetingId: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return signalFastAnswer({
    url: `/api/meeting/${meetingId}/signal`,
    headers: { host: 'localhost:3000', origin: ORIGIN, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
    body: Buffer.from(body),
  });
}
const json = (answer: { body?: Buffer }) => JSON.parse(answer.body!.toString('utf8'));

describe('signaling\u2019s fast path', () => {
  it('relays a signal as the route does, with every header an API answer carries', async () => {
    const { meetingId, ada, bob, bobStream } = await twoInACall();
    const envelope = JSON.stringify({ k: 'signed', signal: { body: { candidate: null } } });
    const answer = await fast(meetingId, JSON.stringify({ type: 'signal', to: bob.self.id, envelope }), { authorization: `Bearer ${ada.token}` });
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual({ status: 'ok' });
    expect(answer.headers).toMatchObject({ 'Content-Security-Policy': apiPolicy, 'X-Content-Type-Options': 'nosniff', 'cache-control': 'no-store' });
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(await bobStream.next('signal')).toMatchObject({ from: ada.self.id, envelope });
  });

  it('refuses what the route refuses, with the same status and error code, in the caller\u2019s language', async () => {
    const { meetingId, ada, bob } = await twoInACall();
    const body = { type: 'signal', to: bob.self.id, envelope: 'x' };
    const cases: { name: string; headers: Record<string, string>; body: string | Buffer; status: number; code: string }[] = [
      { name: 'no token', headers: {}, body: JSON.stringify(body), status: 401, code: 'authentication_error' },
      {
        name: 'another origin',
        headers: { authorization: `Bearer ${ada.token}`, origin: 'https://evil.example' },
        body: JSON.stringify(body),
        status: 403,
        code: 'authentication_error',
      },
      { name: 'not JSON', headers: { authorization: `Bearer ${ada.token}` }, body: '{"type":', status: 400, code: 'incorrect_data' },
      {
        name: 'too large',
        headers: { authorization: `Bearer ${ada.token}` },
        body: Buffer.alloc(MAX_SIGNAL_BODY_BYTES + 1, 'x'),
        status: 413,
        code: 'incorrect_data',
      },
    ];
    for (const one of cases) {
      const answer = await fast(meetingId, one.body, one.headers);
      expect([one.name, answer.status, json(answer).errorCode]).toEqual([one.name, one.status, one.code]);
    }
    // The same as the route (through Next.js) for the same call; messages follow Accept-Language.
    const viaRoute = await send(meetingId, null, body);
    const english = await fast(meetingId, JSON.stringify(body));
    expect([english.status, json(english).errorCode, json(english).message]).toEqual([viaRoute.status, viaRoute.json.errorCode, viaRoute.json.message]);
    const german = await fast(meetingId, JSON.stringify(body), { 'accept-language': 'de-DE,de;q=0.9' });
    expect(json(german).errorCode).toBe('authentication_error');
    expect(json(german).message).not.toBe(json(english).message);
  });

  it('is registered for the server layer and takes only POST /api/meeting/{id}/signal without a query', () => {
    registerFastPaths();
    const registered = fromSeam(FAST_PATHS)!.find((fastPath) => fastPath.name === 'signal')!;
    const matches = (method: string, url: string) => registered.matches({ method, url, headers: {} });
    expect(registered.maxBodyBytes).toBe(MAX_SIGNAL_BODY_BYTES + 1);
    expect(matches('POST', '/api/meeting/demo-Ab_9/signal')).toBe(true);
    for (const [method, url] of [
      ['GET', '/api/meeting/demo-Ab_9/signal'],
      ['POST', '/api/meeting/demo-Ab_9/signal?x=1'],
      ['POST', '/api/meeting/demo-Ab_9/signal/'],
      ['POST', '/api/meeting/demo%2FAb/signal'],
      ['POST', '/api/meeting/demo-Ab_9/join'],
    ])
      expect([method, url, matches(method!, url!)]).toEqual([method, url, false]);
  });
});
