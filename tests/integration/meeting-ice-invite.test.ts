import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { config } from '@/lib/config';
import { closeDb, getDb } from '@/lib/db/client';
import { attendees, mailOutbox } from '@/lib/db/schema';
import { iceServersFor, TURN_CREDENTIAL_SECONDS } from '@/lib/meeting/server/ice';
import { GET as ice } from '@/app/api/meeting/[id]/ice/route';
import { GET as invite } from '@/app/api/invite/[hash]/[email]/route';
import { call, createUser, sessionCookies } from '../support/api';
import { joined, makeRoom } from '../support/meeting';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const settings = config as Mutable<typeof config>;

describe('ICE servers', () => {
  const saved = { turnUrls: config.turnUrls, turnSecret: config.turnSecret, iceTransportPolicy: config.iceTransportPolicy };
  afterEach(() => Object.assign(settings, saved));

  it('uses no ICE server at all unless configured (no third-party STUN)', async () => {
    const { user } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user);
    const guest = await joined(meetingId, 'Ice');
    const answer = await call(ice as never, { params: { id: meetingId }, headers: { authorization: `Bearer ${guest.token}` } });
    expect(answer.json).toEqual({ iceServers: [], iceTransportPolicy: 'all' });
  });

  it('hands out coturn use-auth-secret credentials that expire in 12 hours', () => {
    Object.assign(settings, { turnUrls: ['stun:turn.example:3478', 'turn:turn.example:3478?transport=udp', 'turns:turn.example:5349'], turnSecret: 's3cret', iceTransportPolicy: 'relay' });
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    const answer = iceServersFor('participant-1', now);
    const username = `${now / 1000 + TURN_CREDENTIAL_SECONDS}:participant-1`;
    expect(answer).toEqual({
      iceServers: [
        { urls: ['stun:turn.example:3478'] },
        { urls: ['turn:turn.example:3478?transport=udp', 'turns:turn.example:5349'], username, credential: createHmac('sha1', 's3cret').update(username).digest('base64') },
      ],
      iceTransportPolicy: 'relay',
    });
  });
});

describe('GET /api/invite/{hash}/{email}', () => {
  async function outbox(to: string) {
    const db = await getDb();
    return db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
  }

  it('mails an invitation with the link but never a key or the password, in the contact\'s language', async () => {
    const { user, cookie } = await createUser({ isTrial: false, firstName: 'Ines', lastName: 'Inviter' });
    const meetingId = await makeRoom(user, { password: 'Room-Password-1' });
    const db = await getDb();
    const to = `friend-${Date.now()}@example.test`;
    await db.insert(attendees).values({ ownerId: user.id, name: 'Freund', email: to, lang: 'de', timezone: 'Europe/Berlin' });
    const answer = await call(invite as never, { params: { hash: meetingId, email: to }, cookies: sessionCookies(cookie) });
    expect(answer.json).toEqual({ status: 'ok' });
    const [mail] = await outbox(to);
    expect(mail!.subject).toBe('Ines Inviter lädt Sie zu einer Enclave-Besprechung ein');
    expect(mail!.text).toContain(`/now/${meetingId}`);
    expect(mail!.text).not.toContain('#');
    expect(mail!.text).not.toContain('Room-Password-1');
    expect(mail!.text).toContain('Passwort');
  });

  it.each([
    ['a malformed address', 'not-an-address', 400, 'invite_incorrect_email_format'],
    ['an address that is too long', `${'a'.repeat(250)}@example.test`, 400, 'invite_incorrect_email_format'],
  ])('refuses %s', async (_label, email, status, code) => {
    const { user, cookie } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user);
    const answer = await call(invite as never, { params: { hash: meetingId, email }, cookies: sessionCookies(cookie) });
    expect([answer.status, answer.json.errorCode]).toEqual([status, code]);
  });

  it('refuses another user\'s room, a cross-site request and an anonymous caller, sending nothing', async () => {
    const { user: owner } = await createUser({ isTrial: false });
    const { cookie } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(owner);
    const to = `nobody-${Date.now()}@example.test`;
    const foreign = await call(invite as never, { params: { hash: meetingId, email: to }, cookies: sessionCookies(cookie) });
    expect([foreign.status, foreign.json.errorCode]).toEqual([404, 'invite_not_found']);
    const own = await makeRoom((await createUser()).user);
    const crossSite = await call(invite as never, { params: { hash: own, email: to }, cookies: sessionCookies(cookie), headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const anonymous = await call(invite as never, { params: { hash: meetingId, email: to } });
    expect([anonymous.status, anonymous.json.errorCode]).toEqual([401, 'authentication_error']);
    expect(await outbox(to)).toEqual([]);
  });
});
