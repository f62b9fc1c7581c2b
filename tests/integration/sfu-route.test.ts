// Issue 38: POST /api/meeting/{id}/sfu through the real handler, with a real Janus behind it:
// only an admitted participant gets a ticket, and the host's removal reaches the Janus room.
import { config } from '@/lib/environment';
import { closeDb, getDb } from '@/lib/db/client';
import type { SfuTicket } from '@/lib/meeting/protocol';
import { releaseAll } from '@/lib/meeting-server/stream';
import { closePlacements } from '@/lib/sfu/store';
import { janusToken, sfuRoomId, VIDEOROOM_PLUGIN } from '@/lib/sfu/tokens';
import { withJanusHttpHandle } from '@/lib/sfu/janus-http';
import { POST as sfu } from '@/app/api/meeting/[id]/sfu/route';
import { call, createUser } from '../support/api';
import { videoRoomHandle, type JanusSocket } from '../support/janus-client';
import { startJanus } from '../support/janus.mjs';
import { joined, makeRoom, openStream, send, type Stream } from '../support/meeting';
import { portBlock } from '../support/test-ports';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const settings = config as Mutable<typeof config>;
const SECRET = 'sfu-route-test-secret';

// This file's ports (tests/support/test-ports.ts): the node's APIs at +0, its media from +10.
const PORTS = { api: portBlock('sfu-route'), rtp: portBlock('sfu-route') + 10 };
let janus: Awaited<ReturnType<typeof startJanus>>;
const streams: Stream[] = [];
const sockets: JanusSocket[] = [];

beforeAll(async () => {
  await getDb();
  janus = await startJanus({ basePort: PORTS.api, rtpPorts: `${PORTS.rtp}-${PORTS.rtp + 4}`, secret: SECRET });
}, 60_000);
afterAll(async () => {
  streams.forEach((stream) => stream.close());
  await Promise.all(sockets.map((socket) => socket.close()));
  await releaseAll();
  await closePlacements();
  await janus?.stop();
  await closeDb();
});
beforeEach(() => Object.assign(settings, { sfuUrls: `${janus.wsUrl}|${janus.httpUrl}`, sfuSecret: SECRET }));
afterEach(() => Object.assign(settings, { sfuUrls: undefined, sfuSecret: undefined }));

const ticketFor = (meetingId: string, headers: Record<string, string>) => call(sfu as never, { method: 'POST', params: { id: meetingId }, headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function inCall(meetingId: string, name: string, options: { cookie?: string } = {}) {
  const answer = await joined(meetingId, name, options);
  const stream = await openStream(meetingId, answer.token);
  streams.push(stream);
  await stream.next(answer.admitted ? 'welcome' : 'waiting');
  return { ...answer, stream };
}

async function participants(room: string) {
  const token = () => janusToken(SECRET, Date.now() + 60_000);
  return withJanusHttpHandle(janus.httpUrl, VIDEOROOM_PLUGIN, { token }, async (handle) => {
    const answer = await handle.request<{ participants: { id: string }[] }>({ request: 'listparticipants', room });
    return answer.participants.map((participant) => participant.id);
  });
}

describe('POST /api/meeting/{id}/sfu', () => {
  it("gives an admitted participant a ticket that lets them into the meeting's room as themselves", async () => {
    const { user } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user);
    const guest = await inCall(meetingId, 'Sue');
    const answer = await ticketFor(meetingId, bearer(guest.token));
    expect(answer.status).toBe(200);
    const ticket = answer.json as unknown as SfuTicket & { status: string };
    expect(ticket).toMatchObject({ status: 'ok', url: janus.wsUrl, room: sfuRoomId(SECRET, meetingId) });
    expect(ticket.expiresAt).toBeGreaterThan(Date.now());

    const { socket, handleId } = await videoRoomHandle(ticket.url, ticket.token);
    sockets.push(socket);
    const joinedRoom = await socket.message(ticket.token, handleId, {
      request: 'join',
      ptype: 'publisher',
      room: ticket.room,
      id: guest.self.id,
      token: ticket.roomToken,
    });
    expect(joinedRoom.plugindata?.data).toMatchObject({ videoroom: 'joined', id: guest.self.id });
  });

  it('refuses a bad token (401), someone waiting at the door (403), and answers room_not_found without an SFU', async () => {
    const { user, cookie } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user, { askToJoin: true });
    const host = await inCall(meetingId, '', { cookie });
    const knocker = await inCall(meetingId, 'Kim');
    expect(knocker.admitted).toBe(false);

    for (const headers of [{}, bearer('nonsense'), bearer(host.token.slice(0, -2))]) {
      const refused = await ticketFor(meetingId, headers);
      expect([refused.status, refused.json.errorCode]).toEqual([401, 'authentication_error']);
    }
    const waiting = await ticketFor(meetingId, bearer(knocker.token));
    expect([waiting.status, waiting.json.errorCode]).toEqual([403, 'authentication_error']);
    // Another meeting's token is no pass here.
    const elsewhere = await makeRoom(user);
    expect((await ticketFor(elsewhere, bearer(host.token))).status).toBe(401);
    expect((await ticketFor(meetingId, bearer(host.token))).status).toBe(200);

    Object.assign(settings, { sfuUrls: undefined });
    const off = await ticketFor(meetingId, bearer(host.token));
    expect([off.status, off.json.errorCode]).toEqual([404, 'room_not_found']);
    Object.assign(settings, { sfuUrls: `${janus.wsUrl}|${janus.httpUrl}`, sfuSecret: undefined });
    expect((await ticketFor(meetingId, bearer(host.token))).status).toBe(404);
  });

  it('takes a removed participant out of the Janus room and gives them no new ticket', async () => {
    const { user, cookie } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user);
    const host = await inCall(meetingId, '', { cookie });
    const guest = await inCall(meetingId, 'Gus');
    const ticket = (await ticketFor(meetingId, bearer(guest.token))).json as unknown as SfuTicket;
    const { socket, handleId } = await videoRoomHandle(ticket.url, ticket.token);
    sockets.push(socket);
    await socket.message(ticket.token, handleId, { request: 'join', ptype: 'publisher', room: ticket.room, id: guest.self.id, token: ticket.roomToken });
    expect(await participants(ticket.room)).toEqual([guest.self.id]);

    expect((await send(meetingId, host.token, { type: 'host', action: 'remove', target: guest.self.id })).status).toBe(200);
    expect(await participants(ticket.room)).toEqual([]);
    // A fresh handle (the kicked one counts as joined still): the room token is no longer listed.
    const retry = await videoRoomHandle(ticket.url, ticket.token);
    sockets.push(retry.socket);
    const again = await retry.socket.message(ticket.token, retry.handleId, {
      request: 'join',
      ptype: 'publisher',
      room: ticket.room,
      id: guest.self.id,
      token: ticket.roomToken,
    });
    expect(again.plugindata?.data).toMatchObject({ error_code: 433 });
    expect((await ticketFor(meetingId, bearer(guest.token))).status).toBe(403);
  });

  it('destroys the Janus room when the last participant leaves', async () => {
    const { user } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user);
    const [ann, bea] = [await inCall(meetingId, 'Ann'), await inCall(meetingId, 'Bea')];
    const ticket = (await ticketFor(meetingId, bearer(ann.token))).json as unknown as SfuTicket;
    expect(await participants(ticket.room)).toEqual([]);
    await send(meetingId, ann.token, { type: 'leave' });
    expect(await participants(ticket.room)).toEqual([]); // still there: Bea is in the meeting
    await send(meetingId, bea.token, { type: 'leave' });
    // The room goes in the background: poll Janus for a while.
    let gone = false;
    for (let i = 0; i < 40 && !gone; i += 1) {
      gone = await participants(ticket.room).then(
        () => false,
        (error: { code?: number }) => error.code === 426,
      );
      if (!gone) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(gone).toBe(true);
  });

  it('rate limits tickets per participant', async () => {
    const { user } = await createUser({ isTrial: false });
    const meetingId = await makeRoom(user);
    const guest = await inCall(meetingId, 'Rae');
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) statuses.push((await ticketFor(meetingId, bearer(guest.token))).status);
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
