import '../support/billing-on-env';
import { closeDb, getDb } from '@/lib/db/client';
import { config } from '@/lib/environment';
import { limits } from '@/lib/security/rate-limit';
import { GET as info } from '@/app/api/meeting/[id]/route';
import { call, createUser } from '../support/api';
import { freshIp, join, makeRoom, proofFor, wrongProof } from '../support/meeting';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const PASSWORD = 'Open-Sesame-2026';

describe('POST /api/meeting/{id}/join', () => {
  it('refuses unknown and malformed meeting ids with room_not_found', async () => {
    for (const id of ['no-such-meeting', 'bad id!', 'x'.repeat(65)]) {
      const answer = await join(id, { name: 'Guest' });
      expect([answer.status, answer.json.errorCode]).toEqual([404, 'room_not_found']);
    }
  });

  // The browser sends a proof derived from the password (docs/e2ee-crypto.md "Secrets"), never the password.
  it.each([
    ['no proof', async () => ({}), 400, 'incorrect_password', 'password'],
    ['the plain password, which the server never takes', async () => ({ password: PASSWORD }), 400, 'incorrect_password', 'password'],
    ['the proof of a wrong password', async (id: string) => ({ passwordProof: await proofFor(id, 'wrong-password') }), 400, 'incorrect_password', 'password'],
    ['a malformed proof', async () => ({ passwordProof: 'p'.repeat(201) }), 400, 'incorrect_password', 'passwordProof'],
    ['the proof of the right password', async (id: string) => ({ passwordProof: await proofFor(id, PASSWORD) }), 200, undefined, undefined],
  ])('a guest of a password room with %s', async (_label, extra, status, code, field) => {
    const { user } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user, { password: PASSWORD });
    const answer = await join(meetingId, { name: 'Guest', ...(await extra(meetingId)) });
    expect([answer.status, answer.json.errorCode, answer.json.field]).toEqual([status, code, field]);
    if (status === 200) expect(answer.json).toMatchObject({ admitted: true, self: { name: 'Guest', isHost: false } });
  });

  it('lets the signed-in owner in as host under their own name, with the proof: the password is part of the key', async () => {
    const { user, cookie } = await createUser({ isTrial: false, firstName: 'Olga', lastName: 'Owner' });
    const meetingId = await makeRoom(user, { password: PASSWORD, askToJoin: true });
    const without = await join(meetingId, {}, { cookie });
    expect([without.status, without.json.errorCode]).toEqual([400, 'incorrect_password']);
    const answer = await join(meetingId, { passwordProof: await proofFor(meetingId, PASSWORD) }, { cookie });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ admitted: true, self: { name: 'Olga Owner', isHost: true }, maxParticipants: 30, fileLimitBytes: 100 * 1024 * 1024 });
    expect(typeof answer.json.token).toBe('string');
  });

  it('needs a name from a guest', async () => {
    const { user } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user);
    for (const body of [{}, { name: '   ' }]) {
      const answer = await join(meetingId, body);
      expect([answer.status, answer.json.errorCode, answer.json.field]).toEqual([400, 'missing_data', 'name']);
    }
    const long = await join(meetingId, { name: 'n'.repeat(61) });
    expect([long.status, long.json.errorCode]).toEqual([400, 'incorrect_data']);
  });

  it('makes guests of an "ask to join" room knock', async () => {
    const { user } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user, { askToJoin: true });
    const answer = await join(meetingId, { name: 'Knocker' });
    expect(answer.json).toMatchObject({ status: 'ok', admitted: false });
  });

  it("holds a trial owner's meeting to 2 participants: the third gets meeting_full (409)", async () => {
    const { user } = await createUser({ isTrial: true });
    const meetingId = await makeRoom(user);
    expect((await join(meetingId, { name: 'One' })).status).toBe(200);
    expect((await join(meetingId, { name: 'Two' })).status).toBe(200);
    const third = await join(meetingId, { name: 'Three' });
    expect([third.status, third.json.errorCode]).toEqual([409, 'meeting_full']);
    expect(third.json.message).toMatch(/full/i);
  });

  it('never gives more seats than the limit to concurrent joins', async () => {
    const { user } = await createUser({ isTrial: true });
    const meetingId = await makeRoom(user);
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => join(meetingId, { name: `Racer ${i}` })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.json.errorCode === 'meeting_full')).toHaveLength(3);
  });

  it('rate limits password guessing per address and meeting', async () => {
    const { user } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user, { password: PASSWORD });
    const ip = freshIp();
    const codes = [];
    for (let i = 0; i < 11; i += 1) codes.push((await join(meetingId, { name: 'Guesser', passwordProof: wrongProof() }, { ip })).json.errorCode);
    expect(codes.slice(0, 10).every((code) => code === 'incorrect_password')).toBe(true);
    expect(codes[10]).toBe('too_many_attempts');
    // Even the right password waits for the window to end.
    const right = await proofFor(meetingId, PASSWORD);
    expect((await join(meetingId, { name: 'Guesser', passwordProof: right }, { ip })).json.errorCode).toBe('too_many_attempts');
    // Another address is not affected.
    expect((await join(meetingId, { name: 'Friend', passwordProof: right })).status).toBe(200);
  });

  it('rate limits joins per address, before looking the meeting up', async () => {
    // Outside freshIp()'s range: on PostgreSQL the counters are shared by every test file.
    const ip = `172.16.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const { points } = limits.meetingJoin;
    for (let i = 0; i < points; i += 1) expect((await join('no-such-meeting', { name: 'Scanner' }, { ip })).status).toBe(404);
    const { user } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user);
    const refused = await join(meetingId, { name: 'Scanner' }, { ip });
    expect([refused.status, refused.json.errorCode]).toEqual([429, 'too_many_attempts']);
    expect((await join(meetingId, { name: 'Neighbour' })).status).toBe(200);
  }, 120_000);
});

describe('GET /api/meeting/{id}', () => {
  it('tells the lobby what it needs, and never the password hash', async () => {
    const { user, cookie } = await createUser({ isTrial: false, firstName: 'Hana', lastName: 'Host' });
    const meetingId = await makeRoom(user, { password: PASSWORD });
    const guest = await call(info as never, { params: { id: meetingId } });
    expect(guest.json.passwordSalt).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(guest.json).toMatchObject({
      meetingId,
      hasPassword: true,
      askToJoin: false,
      isHost: false,
      userName: null,
      maxParticipants: 30,
      participantCount: 0,
      locked: false,
    });
    expect(guest.text).not.toMatch(/argon2|passwordHash/);
    const owner = await call(info as never, { params: { id: meetingId }, cookies: { enclave_session: cookie } });
    expect(owner.json).toMatchObject({ isHost: true, userName: 'Hana Host' });

    // Whether a call that grows goes through an SFU (the lobby starts the camera on at any size then):
    // only with both SFU_URLS and SFU_SECRET.
    const saved = { sfuUrls: config.sfuUrls, sfuSecret: config.sfuSecret };
    try {
      Object.assign(config, { sfuUrls: undefined, sfuSecret: 's' });
      expect((await call(info as never, { params: { id: meetingId } })).json.sfu).toBe(false);
      Object.assign(config, { sfuUrls: 'ws://127.0.0.1:4900|http://127.0.0.1:4901/janus' });
      expect((await call(info as never, { params: { id: meetingId } })).json.sfu).toBe(true);
    } finally {
      Object.assign(config, saved);
    }
    const missing = await call(info as never, { params: { id: 'missing-room' } });
    expect([missing.status, missing.json.errorCode]).toEqual([404, 'room_not_found']);
  });
});
