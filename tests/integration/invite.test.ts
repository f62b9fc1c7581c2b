import { eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { attendees, mailOutbox, rooms } from '@/lib/db/schema';
import { config } from '@/lib/environment';
import { GET as invite } from '@/app/api/invite/[hash]/[email]/route';
import { call, createUser, sessionCookies } from '../support/api';
import { makeRoom } from '../support/meeting';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

let counter = 0;
const address = (label: string) => `${label}-${Date.now()}-${++counter}@example.test`;

async function outbox(to: string) {
  const db = await getDb();
  return db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
}

function send(meetingId: string, email: string, cookie?: string, headers: Record<string, string> = {}) {
  return call(invite as never, { params: { hash: meetingId, email }, cookies: cookie ? sessionCookies(cookie) : undefined, headers });
}

describe('GET /api/invite/{hash}/{email}', () => {
  it.each([
    ['a contact (their language)', 'de', 'fr', 'Ines Inviter lädt Sie zu einer Enclave-Besprechung ein', 'Passwort'],
    ["a stranger (the inviter's language)", null, 'fr', 'Ines Inviter vous invite à une réunion Enclave', 'mot de passe'],
  ])('mails %s the link, never a key or the password', async (_label, contactLang, inviterLang, subject, passwordWord) => {
    const { user, cookie } = await createUser({ isTrial: false, firstName: 'Ines', lastName: 'Inviter', lang: inviterLang });
    const meetingId = await makeRoom(user, { password: 'Room-Password-1' });
    const to = address('friend');
    if (contactLang) {
      const db = await getDb();
      await db.insert(attendees).values({ ownerId: user.id, name: 'Freund', email: to, lang: contactLang, timezone: 'Europe/Berlin' });
    }
    const answer = await send(meetingId, to.toUpperCase(), cookie, { 'sec-fetch-site': 'same-origin' });
    expect(answer.json).toEqual({ status: 'ok' });
    const [mail] = await outbox(to);
    expect(mail!.subject).toBe(subject);
    expect(mail!.text).toContain(`/now/${meetingId}`);
    for (const body of [mail!.text, mail!.html]) {
      expect(body).not.toContain('#k=');
      expect(body).not.toContain('Room-Password-1');
    }
    expect(mail!.text).not.toContain('#');
    expect(mail!.text).toContain(passwordWord);
  });

  it('says nothing about a password when the room has none', async () => {
    const { user, cookie } = await createUser({ isTrial: false, lang: 'en' });
    const meetingId = await makeRoom(user);
    const to = address('open');
    expect((await send(meetingId, to, cookie)).status).toBe(200);
    const [mail] = await outbox(to);
    expect(mail!.text).not.toMatch(/password/i);
  });

  it.each([
    ['a malformed address', 'not-an-address'],
    ['an address that is too long', `${'a'.repeat(250)}@example.test`],
    ['an empty address', ' '],
  ])('refuses %s', async (_label, email) => {
    const { user, cookie } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user);
    const answer = await send(meetingId, email, cookie);
    expect([answer.status, answer.json.errorCode, answer.json.field]).toEqual([400, 'invite_incorrect_email_format', 'email']);
  });

  it("refuses another user's room, an unknown one, a cross-site request and an anonymous caller, sending nothing", async () => {
    const { user: owner } = await createUser({ isTrial: false });
    const { user, cookie } = await createUser({ isTrial: false });
    const foreign = await makeRoom(owner);
    const own = await makeRoom(user);
    const to = address('nobody');
    for (const [meetingId, headers, status, code] of [
      [foreign, {}, 404, 'invite_not_found'],
      ['no-such-meeting', {}, 404, 'invite_not_found'],
      [own, { 'sec-fetch-site': 'cross-site' }, 403, 'authentication_error'],
      [own, { 'sec-fetch-site': 'same-site' }, 403, 'authentication_error'],
    ] as const) {
      const answer = await send(meetingId, to, cookie, headers);
      expect([answer.status, answer.json.errorCode]).toEqual([status, code]);
    }
    const anonymous = await send(own, to);
    expect([anonymous.status, anonymous.json.errorCode]).toEqual([401, 'authentication_error']);
    expect(await outbox(to)).toEqual([]);
  });

  it('sends at most 50 invitations per user and hour', async () => {
    const { user, cookie } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user);
    const statuses: number[] = [];
    for (let i = 0; i < 51; i += 1) statuses.push((await send(meetingId, address('many'), cookie)).status);
    expect(statuses.slice(0, 50).every((status) => status === 200)).toBe(true);
    expect(statuses[50]).toBe(429);
  }, 60_000);
});

// Issue 48, point 9: the mail said the call goes directly between the participants, untrue where
// the room may use this server's SFU.
describe('the invitation says how the call travels on this server', () => {
  const settings = config as { sfuUrls?: string; sfuSecret?: string };
  afterEach(() => Object.assign(settings, { sfuUrls: undefined, sfuSecret: undefined }));

  it('directly between the participants without an SFU; directly or through the SFU with one, unless the room is pinned to the mesh', async () => {
    const { user, cookie } = await createUser({ isTrial: false, lang: 'en' });
    const meetingId = await makeRoom(user);
    const mesh = address('mesh');
    await send(meetingId, mesh, cookie);
    expect((await outbox(mesh))[0]!.text).toContain('The call goes directly between the participants');

    Object.assign(settings, { sfuUrls: 'wss://sfu.example.test/janus|http://127.0.0.1:8088/janus', sfuSecret: 'a-secret-shared-with-janus' });
    const sfu = address('sfu');
    await send(meetingId, sfu, cookie);
    const [viaSfu] = await outbox(sfu);
    expect(viaSfu!.text).toContain("through the server's SFU, which cannot read it");
    expect(viaSfu!.text).not.toContain('The call goes directly');

    const db = await getDb();
    await db.update(rooms).set({ mediaRoute: 'mesh' }).where(eq(rooms.meetingId, meetingId));
    const pinned = address('pinned');
    await send(meetingId, pinned, cookie);
    expect((await outbox(pinned))[0]!.text).toContain('The call goes directly between the participants');
  });
});
