import { createHmac } from 'node:crypto';
import { config } from '@/lib/environment';
import { closeDb, getDb } from '@/lib/db/client';
import { iceServersFor, TURN_CREDENTIAL_SECONDS } from '@/lib/meeting-server/ice';
import { GET as ice } from '@/app/api/meeting/[id]/ice/route';
import { call, createUser } from '../support/api';
import { joined, makeRoom } from '../support/meeting';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const settings = config as Mutable<typeof config>;
const saved = { turnUrls: config.turnUrls, turnSecret: config.turnSecret, iceTransportPolicy: config.iceTransportPolicy };
afterEach(() => Object.assign(settings, saved));

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const username = (participant: string) => `${NOW / 1000 + TURN_CREDENTIAL_SECONDS}:${participant}`;
const credential = (secret: string, participant: string) => createHmac('sha1', secret).update(username(participant)).digest('base64');

describe('GET /api/meeting/{id}/ice', () => {
  it('uses no ICE server at all unless configured (no third-party STUN), for a valid token only', async () => {
    const { user } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user);
    const guest = await joined(meetingId, 'Ice');
    const answer = await call(ice as never, { params: { id: meetingId }, headers: { authorization: `Bearer ${guest.token}` } });
    expect(answer.json).toEqual({ iceServers: [], iceTransportPolicy: 'all' });
    const refusedHeaders: Record<string, string>[] = [{}, { authorization: 'Bearer nonsense' }, { authorization: guest.token }];
    for (const headers of refusedHeaders) {
      const refused = await call(ice as never, { params: { id: meetingId }, headers });
      expect([refused.status, refused.json.errorCode]).toEqual([401, 'authentication_error']);
    }
  });

  it("answers the configured servers with the participant's own TURN credentials", async () => {
    Object.assign(settings, { turnUrls: ['turn:127.0.0.1:3478'], turnSecret: 'loopback-secret', iceTransportPolicy: 'relay' });
    const { user } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user);
    const guest = await joined(meetingId, 'Relay');
    const answer = await call(ice as never, { params: { id: meetingId }, headers: { authorization: `Bearer ${guest.token}` } });
    const [server] = answer.json.iceServers as { urls: string[]; username: string; credential: string }[];
    expect(answer.json.iceTransportPolicy).toBe('relay');
    expect(server!.username).toMatch(new RegExp(`^\\d+:${guest.self.id}$`));
    expect(server!.credential).toBe(createHmac('sha1', 'loopback-secret').update(server!.username).digest('base64'));
    const expiry = Number(server!.username.split(':')[0]);
    expect(Math.abs(expiry - (Date.now() / 1000 + TURN_CREDENTIAL_SECONDS))).toBeLessThan(60);
  });
});

describe('iceServersFor', () => {
  it.each([
    ['nothing configured', [], undefined, []],
    ['STUN only', ['stun:stun.example:3478'], undefined, [{ urls: ['stun:stun.example:3478'] }]],
    ['TURN without a secret (coturn without auth)', ['turn:turn.example:3478'], undefined, [{ urls: ['turn:turn.example:3478'] }]],
    [
      'STUN and TURN with a secret',
      ['stun:turn.example:3478', 'turn:turn.example:3478?transport=udp', 'turns:turn.example:5349'],
      's3cret',
      [
        { urls: ['stun:turn.example:3478'] },
        { urls: ['turn:turn.example:3478?transport=udp', 'turns:turn.example:5349'], username: username('p-1'), credential: credential('s3cret', 'p-1') },
      ],
    ],
  ])('with %s', (_label, turnUrls, turnSecret, iceServers) => {
    Object.assign(settings, { turnUrls, turnSecret, iceTransportPolicy: 'all' });
    expect(iceServersFor('p-1', NOW)).toEqual({ iceServers, iceTransportPolicy: 'all' });
  });
});

describe('ICE_TRANSPORT_POLICY', () => {
  const env = { ...process.env };
  afterEach(() => {
    process.env = { ...env };
  });

  it.each([
    ['relay', 'turn:127.0.0.1:3478', 'relay'],
    ['relay', 'stun:127.0.0.1:3478, turns:turn.example:5349', 'relay'],
    ['relay', 'stun:127.0.0.1:3478', 'all'],
    ['relay', undefined, 'all'],
    ['all', 'turn:127.0.0.1:3478', 'all'],
    ['bogus', 'turn:127.0.0.1:3478', 'all'],
  ])('%s with TURN_URLS=%s is %s', (policy, urls, expected) => {
    process.env.ICE_TRANSPORT_POLICY = policy;
    if (urls) process.env.TURN_URLS = urls;
    else delete process.env.TURN_URLS;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const fresh = require('@/lib/environment') as typeof import('@/lib/environment');
      expect(fresh.config.iceTransportPolicy).toBe(expected);
    });
  });
});
