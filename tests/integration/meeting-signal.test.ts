import { closeDb, getDb } from '@/lib/db/client';
import { MAX_SIGNAL_BATCH, MAX_SIGNAL_BYTES, type JoinAnswer } from '@/lib/meeting/protocol';
import { releaseAll } from '@/lib/meeting-server/stream';
import { signJoinToken } from '@/lib/meeting-server/token';
import { GET as ice } from '@/app/api/meeting/[id]/ice/route';
import { call, createUser } from '../support/api';
import { join, joined, joinStreaming, makeRoom, openStream, proofFor, send, type Stream } from '../support/meeting';

beforeAll(() => getDb(), 60_000);
afterAll(async () => {
  await releaseAll(); // no grace timer outlives the file
  await closeDb();
});

const streams: Stream[] = [];
afterEach(() => streams.splice(0).forEach((stream) => stream.close()));
async function connect(meetingId: string, token: string | null, lastEventId?: string) {
  const stream = await openStream(meetingId, token, lastEventId);
  streams.push(stream);
  return stream;
}

async function meeting(options: { askToJoin?: boolean } = {}) {
  const { user, cookie } = await createUser({ isTrial: false, firstName: 'Hal', lastName: 'Host' });
  return { meetingId: await makeRoom(user, options), cookie };
}

// The server relays envelopes it cannot read (docs/e2ee-crypto.md "Signaling"): any string will do here.
const offer = JSON.stringify({ k: 'signed', signal: { body: { description: { type: 'offer', sdp: 'v=0\r\n' } } } });
const END = JSON.stringify({ k: 'signed', signal: { body: { candidate: null } } });

describe('the signaling stream and relay', () => {
  it('welcomes each participant, announces joins, and relays signals between two of them only', async () => {
    const { meetingId } = await meeting();
    const a = await joined(meetingId, 'Ada');
    const aStream = await connect(meetingId, a.token);
    expect(await aStream.next('welcome')).toMatchObject({ self: { id: a.self.id, name: 'Ada' }, participants: [], locked: false });

    const b = await joined(meetingId, 'Bob');
    const bStream = await connect(meetingId, b.token);
    expect(await bStream.next('welcome')).toMatchObject({ participants: [{ id: a.self.id, name: 'Ada', isHost: false }] });
    expect(await aStream.next('join')).toMatchObject({ participant: { id: b.self.id, name: 'Bob' } });

    const c = await joined(meetingId, 'Cy');
    const cStream = await connect(meetingId, c.token);
    await cStream.next('welcome');

    expect((await send(meetingId, a.token, { type: 'signal', to: b.self.id, envelope: offer })).status).toBe(200);
    const candidate = JSON.stringify({ k: 'signed', signal: { body: { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host' } } });
    expect((await send(meetingId, a.token, { type: 'signal', to: b.self.id, envelope: candidate })).status).toBe(200);
    expect(await bStream.next('signal')).toMatchObject({ from: a.self.id, envelope: offer });
    expect(await bStream.next('signal')).toMatchObject({ from: a.self.id, envelope: candidate });
    // Nobody else hears it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cStream.pending().filter((event) => event.type === 'signal')).toEqual([]);

    // Several at once (what waited while the previous POST was on its way): relayed in order.
    const burst = Array.from({ length: 5 }, (_, i) => JSON.stringify({ k: 'signed', signal: { body: { candidate: `candidate:${i}` } } }));
    expect((await send(meetingId, a.token, { type: 'signals', to: b.self.id, envelopes: burst })).status).toBe(200);
    for (const envelope of burst) expect(await bStream.next('signal')).toMatchObject({ from: a.self.id, envelope });
    expect(cStream.pending().filter((event) => event.type === 'signal')).toEqual([]);

    const toNobody = await send(meetingId, a.token, { type: 'signal', to: 'not-a-participant', envelope: offer });
    expect([toNobody.status, toNobody.json.errorCode]).toEqual([400, 'incorrect_data']);
    const toSelf = await send(meetingId, a.token, { type: 'signal', to: a.self.id, envelope: offer });
    expect(toSelf.status).toBe(400);
  });

  it('a join that asks for the stream gets it as its answer: the token first, then the welcome; the others hear the join', async () => {
    const { meetingId } = await meeting();
    const a = await joined(meetingId, 'Ada');
    const aStream = await connect(meetingId, a.token);
    await aStream.next('welcome');

    const key = 'B'.repeat(87);
    const bob = await joinStreaming(meetingId, { name: 'Bob', keyRequest: key });
    streams.push(bob.stream);
    expect([bob.status, bob.type]).toEqual([200, 'text/event-stream; charset=utf-8']);
    const answer = (await bob.stream.next('joined' as never)) as unknown as JoinAnswer & { status: string; id: string | null };
    expect(answer).toMatchObject({ status: 'ok', self: { name: 'Bob', isHost: false }, admitted: true, id: null });
    expect(typeof answer.token).toBe('string');
    expect(await bob.stream.next('welcome')).toMatchObject({ participants: [{ id: a.self.id }] });
    expect(await aStream.next('join')).toMatchObject({ participant: { id: answer.self.id }, keyRequest: key });

    // The token is the usual one: the stream it opened carries signals, and a later GET resumes it.
    await send(meetingId, a.token, { type: 'signal', to: answer.self.id, envelope: offer });
    const signal = await bob.stream.next('signal');
    expect(signal).toMatchObject({ from: a.self.id, envelope: offer });
    bob.stream.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await send(meetingId, a.token, { type: 'signal', to: answer.self.id, envelope: END });
    const again = await connect(meetingId, answer.token, signal.id!);
    expect(await again.next('signal')).toMatchObject({ envelope: END });
    expect(again.pending().some((event) => event.type === 'welcome')).toBe(false);
    expect(aStream.pending().some((event) => event.type === 'leave')).toBe(false);
  });

  it("a join that asks for the stream and is refused answers JSON in the user's terms, and seats nobody", async () => {
    const { user } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user, { password: 'opensesame' });
    const refused = await joinStreaming(meetingId, { name: 'Eve', passwordProof: await proofFor(meetingId, 'wrong one') });
    expect([refused.status, refused.type, refused.json.errorCode]).toEqual([400, 'application/json', 'incorrect_password']);
    const nameless = await joinStreaming(meetingId, { passwordProof: await proofFor(meetingId, 'opensesame') });
    expect([nameless.status, nameless.json.errorCode]).toEqual([400, 'missing_data']);
    const first = await joined(meetingId, 'Ada', { password: 'opensesame' });
    const stream = await connect(meetingId, first.token);
    expect(await stream.next('welcome')).toMatchObject({ participants: [] });
  });

  it("refuses missing, forged, expired and other meetings' tokens", async () => {
    const { meetingId } = await meeting();
    const other = await meeting();
    const a = await joined(meetingId, 'Ada');
    const forged = `${a.token.split('.')[0]}.${'A'.repeat(43)}`;
    const foreign = (await joined(other.meetingId, 'Eve')).token;
    const expired = signJoinToken({ meetingId, participantId: a.self.id, name: 'Ada', isHost: false }, Date.now() - 13 * 3600 * 1000);
    for (const token of [null, 'garbage', forged, foreign, expired]) {
      expect((await connect(meetingId, token)).status).toBe(401);
      const answer = await send(meetingId, token, { type: 'leave' });
      expect([answer.status, answer.json.errorCode]).toEqual([401, 'authentication_error']);
      const iceAnswer = await call(ice as never, { params: { id: meetingId }, headers: token ? { authorization: `Bearer ${token}` } : {} });
      expect(iceAnswer.status).toBe(401);
    }
  });

  it('refuses malformed, oversized and flooding messages without harming the others', async () => {
    const { meetingId } = await meeting();
    const a = await joined(meetingId, 'Ada');
    const b = await joined(meetingId, 'Bob');
    const aStream = await connect(meetingId, a.token);
    await aStream.next('welcome');
    const bStream = await connect(meetingId, b.token);
    await bStream.next('welcome');

    for (const body of [
      '{not json',
      { type: 'shout' },
      { type: 'signal' },
      { type: 'signal', to: b.self.id, envelope: { type: 'offer' } },
      { type: 'signal', to: b.self.id, envelope: '' },
      { type: 'host', action: 'explode' },
      [1, 2],
    ]) {
      const answer = await send(meetingId, a.token, body);
      expect(answer.status).toBe(400);
      expect(['incorrect_data', 'missing_data']).toContain(answer.json.errorCode);
    }
    const big = await send(meetingId, a.token, { type: 'signal', to: b.self.id, envelope: 'x'.repeat(MAX_SIGNAL_BYTES + 10) });
    expect([big.status, big.json.errorCode]).toEqual([400, 'incorrect_data']);
    const huge = await send(meetingId, a.token, { type: 'signals', to: b.self.id, envelopes: Array.from({ length: 5 }, () => 'x'.repeat(MAX_SIGNAL_BYTES)) });
    expect(huge.status).toBe(413);
    for (const envelopes of [[], Array.from({ length: MAX_SIGNAL_BATCH + 1 }, () => END), [END, '']]) {
      expect((await send(meetingId, a.token, { type: 'signals', to: b.self.id, envelopes })).status).toBe(400);
    }

    const flood = await Promise.all(Array.from({ length: 500 }, () => send(meetingId, a.token, { type: 'signal', to: b.self.id, envelope: END })));
    expect(flood.filter((answer) => answer.status === 429).length).toBeGreaterThan(0);
    expect(flood.find((answer) => answer.status === 429)?.json.errorCode).toBe('too_many_attempts');
    // Bob is not slowed down by Ada's flood.
    expect((await send(meetingId, b.token, { type: 'signal', to: a.self.id, envelope: offer })).status).toBe(200);
    expect(await aStream.next('signal')).toMatchObject({ from: b.self.id });
  });

  it('replays what a reconnecting stream missed (Last-Event-ID)', async () => {
    const { meetingId } = await meeting();
    const a = await joined(meetingId, 'Ada');
    const b = await joined(meetingId, 'Bob');
    const aStream = await connect(meetingId, a.token);
    const welcome = await aStream.next('welcome');
    const bStream = await connect(meetingId, b.token);
    await bStream.next('welcome');
    const join = await aStream.next('join');
    expect(Number(join.id)).toBeGreaterThan(Number(welcome.id));
    aStream.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await send(meetingId, b.token, { type: 'signal', to: a.self.id, envelope: offer });
    await send(meetingId, b.token, { type: 'signal', to: a.self.id, envelope: END });
    const again = await connect(meetingId, a.token, join.id!);
    expect(await again.next('signal')).toMatchObject({ envelope: offer });
    expect(await again.next('signal')).toMatchObject({ envelope: END });
    expect(again.pending().some((event) => event.type === 'welcome')).toBe(false);
    // Bob never saw Ada leave: the reconnect came within the grace period.
    expect(bStream.pending().some((event) => event.type === 'leave')).toBe(false);
  });

  it('replaces a first stream by a second one with the same token, and resyncs an unknown Last-Event-ID', async () => {
    const { meetingId } = await meeting();
    const a = await joined(meetingId, 'Ada');
    const b = await joined(meetingId, 'Bob');
    const aStream = await connect(meetingId, a.token);
    await aStream.next('welcome');
    const first = await connect(meetingId, b.token);
    await first.next('welcome');
    await aStream.next('join');

    const second = await connect(meetingId, b.token, '999999');
    // Events cannot be replayed from an id this stream never sent: a fresh welcome, nothing announced.
    expect(await second.next('welcome')).toMatchObject({ self: { id: b.self.id }, participants: [{ id: a.self.id }] });
    await send(meetingId, a.token, { type: 'signal', to: b.self.id, envelope: END });
    expect(await second.next('signal')).toMatchObject({ from: a.self.id });
    await new Promise((resolve) => setTimeout(resolve, 3500)); // longer than the reconnect grace
    expect(first.pending().some((event) => event.type === 'signal')).toBe(false);
    expect(aStream.pending().map((event) => event.type)).toEqual([]);
  });

  it('tells the others within seconds when a stream drops for good, at once when someone leaves', async () => {
    const { meetingId } = await meeting();
    const [a, b, c] = [await joined(meetingId, 'Ada'), await joined(meetingId, 'Bob'), await joined(meetingId, 'Cy')];
    const aStream = await connect(meetingId, a.token);
    const bStream = await connect(meetingId, b.token);
    const cStream = await connect(meetingId, c.token);
    for (const stream of [aStream, bStream, cStream]) await stream.next('welcome');

    const dropped = Date.now();
    bStream.close();
    expect(await aStream.next('leave', 8000)).toMatchObject({ participantId: b.self.id, reason: 'lost' });
    expect(Date.now() - dropped).toBeLessThan(6000);
    expect((await connect(meetingId, b.token)).status).toBe(401);

    expect((await send(meetingId, c.token, { type: 'leave' })).status).toBe(200);
    expect(await aStream.next('leave', 1000)).toMatchObject({ participantId: c.self.id, reason: 'left' });
  });
});

describe('the host', () => {
  it('mutes, asks to unmute and removes; nobody else may', async () => {
    const { meetingId, cookie } = await meeting();
    const host = await joined(meetingId, '', { cookie });
    const guest = await joined(meetingId, 'Gus');
    const other = await joined(meetingId, 'Oda');
    const hostStream = await connect(meetingId, host.token);
    const guestStream = await connect(meetingId, guest.token);
    const otherStream = await connect(meetingId, other.token);
    for (const stream of [hostStream, guestStream, otherStream]) await stream.next('welcome');

    const refused = await send(meetingId, other.token, { type: 'host', action: 'mute', target: guest.self.id });
    expect([refused.status, refused.json.errorCode]).toEqual([403, 'authentication_error']);

    await send(meetingId, host.token, { type: 'host', action: 'mute', target: guest.self.id });
    expect(await guestStream.next('muted')).toMatchObject({ from: host.self.id });
    await send(meetingId, host.token, { type: 'host', action: 'ask-unmute', target: guest.self.id });
    await guestStream.next('unmute-request');

    await send(meetingId, host.token, { type: 'host', action: 'remove', target: guest.self.id });
    await guestStream.next('removed');
    expect(await otherStream.next('leave')).toMatchObject({ participantId: guest.self.id, reason: 'removed' });
    // The removed token is dead: no stream, no messages.
    expect((await connect(meetingId, guest.token)).status).toBe(403);
    expect((await send(meetingId, guest.token, { type: 'signal', to: host.self.id, envelope: offer })).status).toBe(403);
    expect((await call(ice as never, { params: { id: meetingId }, headers: { authorization: `Bearer ${guest.token}` } })).status).toBe(403);
    // Nor can the host act on someone who is not there.
    const ghost = await send(meetingId, host.token, { type: 'host', action: 'mute', target: guest.self.id });
    expect([ghost.status, ghost.json.errorCode]).toEqual([400, 'incorrect_data']);
  });

  it('locks the meeting: newcomers knock, the host admits or denies', async () => {
    const { meetingId, cookie } = await meeting();
    const host = await joined(meetingId, '', { cookie });
    const hostStream = await connect(meetingId, host.token);
    await hostStream.next('welcome');
    const guest = await joined(meetingId, 'Early');
    const guestStream = await connect(meetingId, guest.token);
    await guestStream.next('welcome');
    await hostStream.next('join');

    await send(meetingId, host.token, { type: 'host', action: 'lock' });
    expect(await guestStream.next('locked')).toMatchObject({ locked: true });

    const late = await joined(meetingId, 'Late');
    expect(late.admitted).toBe(false);
    const lateStream = await connect(meetingId, late.token);
    await lateStream.next('waiting');
    expect(await hostStream.next('knock')).toMatchObject({ participant: { id: late.self.id, name: 'Late' } });
    // A waiting participant cannot signal anyone.
    expect((await send(meetingId, late.token, { type: 'signal', to: host.self.id, envelope: offer })).status).toBe(403);

    await send(meetingId, host.token, { type: 'host', action: 'admit', target: late.self.id });
    const admitted = await lateStream.next('admitted');
    expect(admitted).toMatchObject({ locked: true });
    expect((admitted as { participants: { id: string }[] }).participants.map((p) => p.id).sort()).toEqual([host.self.id, guest.self.id].sort());
    expect(await guestStream.next('join')).toMatchObject({ participant: { id: late.self.id } });

    const denied = await joined(meetingId, 'Denied');
    const deniedStream = await connect(meetingId, denied.token);
    await deniedStream.next('waiting');
    await hostStream.next('knock');
    await send(meetingId, host.token, { type: 'host', action: 'deny', target: denied.self.id });
    await deniedStream.next('denied');
    expect(guestStream.pending().some((event) => event.type === 'join' && 'participant' in event && event.participant.id === denied.self.id)).toBe(false);
  });

  it("hands a newcomer's handoff key from its join to those present, in the join event only, and refuses a malformed one", async () => {
    const { meetingId, cookie } = await meeting({ askToJoin: true });
    const host = await joined(meetingId, '', { cookie });
    const hostStream = await connect(meetingId, host.token);
    await hostStream.next('welcome');
    const key = 'B'.repeat(87);
    // A knocking guest's key reaches the call only with the host's admission.
    const guest = await joined(meetingId, 'Guest', { keyRequest: key });
    const guestStream = await connect(meetingId, guest.token);
    await guestStream.next('waiting');
    expect(await hostStream.next('knock')).not.toHaveProperty('keyRequest');
    expect((await send(meetingId, host.token, { type: 'host', action: 'admit', target: guest.self.id })).status).toBe(200);
    expect(await hostStream.next('join')).toMatchObject({ participant: { id: guest.self.id }, keyRequest: key });
    // In an open room the key goes with the join at once; someone with the link's key posts none.
    const open = await meeting();
    const ada = await joined(open.meetingId, 'Ada');
    const adaStream = await connect(open.meetingId, ada.token);
    await adaStream.next('welcome');
    await connect(open.meetingId, (await joined(open.meetingId, 'Bob', { keyRequest: key })).token);
    expect(await adaStream.next('join')).toMatchObject({ participant: { name: 'Bob' }, keyRequest: key });
    await connect(open.meetingId, (await joined(open.meetingId, 'Linked')).token);
    expect(await adaStream.next('join')).not.toHaveProperty('keyRequest');

    for (const bad of ['short', `${'B'.repeat(86)}=`, 'B'.repeat(88), 42]) {
      const answer = await join(meetingId, { name: 'Bad', keyRequest: bad });
      expect([answer.status, answer.json.errorCode]).toEqual([400, 'incorrect_data']);
    }
  });

  it('makes every guest of an "ask to join" room knock, but not the host', async () => {
    const { meetingId, cookie } = await meeting({ askToJoin: true });
    const guest = await joined(meetingId, 'Early bird');
    const guestStream = await connect(meetingId, guest.token);
    await guestStream.next('waiting');
    // The host arrives later and hears the knock waiting at the door.
    const host = await joined(meetingId, '', { cookie });
    const hostStream = await connect(meetingId, host.token);
    await hostStream.next('welcome');
    expect(await hostStream.next('knock')).toMatchObject({ participant: { id: guest.self.id } });
  });
});
