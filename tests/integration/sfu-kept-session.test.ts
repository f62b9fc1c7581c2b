// Issue 46 item 4: the app keeps one Janus session per node (lib/sfu/janus-kept.ts), so a ticket
// for a room it made is one HTTP request instead of five; against a real Janus that restarts
// under it, the next ticket still comes, and a room of the meeting's name that the restarted
// node holds is checked again before a token for it is handed out.
import { config } from '@/lib/environment';
import { withJanusHttpHandle } from '@/lib/sfu/janus-http';
import { closeKeptSessions, KEPT_IDLE_MS, withKeptHandle } from '@/lib/sfu/janus-kept';
import { closePlacements } from '@/lib/sfu/store';
import { sfuTicketFor } from '@/lib/sfu/ticket';
import { janusToken, sfuRoomId, sfuRoomSecret, VIDEOROOM_PLUGIN } from '@/lib/sfu/tokens';
import { startJanus } from '../support/janus.mjs';
import { portBlock } from '../support/test-ports';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const settings = config as Mutable<typeof config>;

// This file's ports (tests/support/test-ports.ts): the node's APIs at +0, its media from +10.
const PORTS = { api: portBlock('sfu-kept-session'), rtp: portBlock('sfu-kept-session') + 10 };
const SECRET = 'sfu-kept-session-test-secret';
const start = () => startJanus({ basePort: PORTS.api, rtpPorts: `${PORTS.rtp}-${PORTS.rtp + 7}`, secret: SECRET });
let janus: Awaited<ReturnType<typeof start>>;

beforeAll(async () => {
  janus = await start();
  Object.assign(settings, { sfuUrls: `${janus.wsUrl}|${janus.httpUrl}`, sfuSecret: SECRET, redisUrl: undefined });
}, 30_000);
afterEach(() => jest.restoreAllMocks());
afterAll(async () => {
  await closeKeptSessions();
  await closePlacements();
  await janus?.stop();
  Object.assign(settings, { sfuUrls: undefined, sfuSecret: undefined });
});

const meeting = () => `kept-${Date.now()}-${Math.random().toString(36).slice(2)}`;
const appToken = () => janusToken(SECRET, Date.now() + 60_000);

/** Every request the app sends to Janus from now on, as "create", "attach" or the plugin request's name. */
function janusRequests(): string[] {
  const sent: string[] = [];
  const realFetch = globalThis.fetch;
  jest.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    if (String(input).startsWith(janus.httpUrl) && typeof init?.body === 'string') {
      const body = JSON.parse(init.body) as { janus: string; body?: { request: string } };
      sent.push(body.body?.request ?? body.janus);
    }
    return realFetch(input, init);
  });
  return sent;
}

/** The room's entry in the node's list (its admin_key lists private rooms too). */
async function listed(room: string) {
  return withJanusHttpHandle(janus.httpUrl, VIDEOROOM_PLUGIN, { token: appToken }, async (handle) => {
    const { list } = await handle.request<{ list: Record<string, unknown>[] }>({ request: 'list', admin_key: SECRET });
    return list.find((entry) => entry.room === room) ?? null;
  });
}

describe("the app's kept session on a Janus node", () => {
  it('gives a ticket for a room it made with one request, and one for a new room with three', async () => {
    await sfuTicketFor(meeting(), 'warm', { publishers: 4 }); // the session is made
    const meetingId = meeting();
    const sent = janusRequests();
    await sfuTicketFor(meetingId, 'ada', { publishers: 4 });
    expect(sent.splice(0)).toEqual(['create']); // the room, with Ada's token in it
    await sfuTicketFor(meetingId, 'bob', { publishers: 4 });
    await sfuTicketFor(meetingId, 'cy', { publishers: 4 });
    expect(sent).toEqual(['allowed', 'allowed']);
    const room = sfuRoomId(SECRET, meetingId);
    const { allowed } = await withJanusHttpHandle(janus.httpUrl, VIDEOROOM_PLUGIN, { token: appToken }, (handle) =>
      handle.request<{ allowed: string[] }>({ request: 'allowed', room, secret: sfuRoomSecret(SECRET, room), action: 'add', allowed: [] }),
    );
    expect(allowed).toHaveLength(3);
  });

  it('gives every ticket of a burst for a new room, the room made once and every token in it', async () => {
    await sfuTicketFor(meeting(), 'warm', { publishers: 4 });
    const meetingId = meeting();
    const names = ['ada', 'bob', 'cy', 'dee', 'eve', 'finn'];
    const tickets = await Promise.all(names.map((name) => sfuTicketFor(meetingId, name, { publishers: 8 })));
    expect(new Set(tickets.map((ticket) => ticket.room)).size).toBe(1);
    const room = tickets[0]!.room;
    const { allowed } = await withJanusHttpHandle(janus.httpUrl, VIDEOROOM_PLUGIN, { token: appToken }, (handle) =>
      handle.request<{ allowed: string[] }>({ request: 'allowed', room, secret: sfuRoomSecret(SECRET, room), action: 'add', allowed: [] }),
    );
    expect(allowed.sort()).toEqual(tickets.map((ticket) => ticket.roomToken).sort());
    expect(await listed(room)).toMatchObject({ require_e2ee: true, require_pvtid: true, is_private: true });
  });

  it('is told of a room that another copy of the module destroyed: one set of checked rooms per process', async () => {
    // The build inlines lib/sfu/ticket.ts in the ticket route's chunk and the meeting stream's
    // (which ends rooms): a copy loaded apart, under the same settings, stands for the other.
    let other: typeof import('@/lib/sfu/ticket') | undefined;
    const saved = { ...process.env };
    Object.assign(process.env, { SFU_URLS: settings.sfuUrls, SFU_SECRET: SECRET });
    await jest.isolateModulesAsync(async () => {
      other = await import('@/lib/sfu/ticket');
    });
    process.env = saved;
    const meetingId = meeting();
    await sfuTicketFor(meetingId, 'ada', { publishers: 4 });
    await other!.closeSfuRoom(meetingId);
    const sent = janusRequests();
    await sfuTicketFor(meetingId, 'bob', { publishers: 4 });
    // Straight to making the room again: not first a token for a room the other copy destroyed.
    expect(sent).toEqual(['create']);
  });

  it('survives a restart of Janus: a new session, and a room of the same name found there is checked again and replaced', async () => {
    const meetingId = meeting();
    const before = await sfuTicketFor(meetingId, 'ada', { publishers: 4 });
    await janus.stop();
    janus = await start();
    // The restarted node holds a room of the meeting's name that forwards clear media (a static
    // room in its config, or one made by hand): the session that verified the old room is gone.
    await withJanusHttpHandle(janus.httpUrl, VIDEOROOM_PLUGIN, { token: appToken }, (handle) =>
      handle.request({ request: 'create', room: before.room, admin_key: SECRET, secret: sfuRoomSecret(SECRET, before.room), require_e2ee: false }),
    );
    const sent = janusRequests();
    const after = await sfuTicketFor(meetingId, 'bob', { publishers: 4 });
    expect(after.room).toBe(before.room);
    // Refused as an unknown session, then a new one, and the room checked before the token
    // (beside them, the old session's end is asked for, in case Janus still knew it).
    expect(sent.filter((request) => request !== 'destroy')).toEqual(['allowed', 'create', 'attach', 'create', 'list', 'create', 'list', 'allowed']);
    expect(sent.filter((request) => request === 'destroy')).toHaveLength(2); // the old session, then the clear room
    expect(await listed(after.room)).toMatchObject({ require_e2ee: true, require_pvtid: true, is_private: true });
  }, 30_000);

  it('is not reused once idle for KEPT_IDLE_MS, before Janus would end it (session_timeout)', async () => {
    let now = Date.now();
    const list = () =>
      withKeptHandle(
        janus.httpUrl,
        VIDEOROOM_PLUGIN,
        { key: 'idle-test', make: appToken },
        {},
        (handle) => handle.request({ request: 'list', admin_key: SECRET }),
        () => now,
      );
    const sent = janusRequests();
    await list();
    now += KEPT_IDLE_MS - 1;
    await list();
    expect(sent.splice(0)).toEqual(['create', 'attach', 'list', 'list']);
    now += KEPT_IDLE_MS;
    await list();
    expect(sent.filter((request) => request !== 'destroy')).toEqual(['create', 'attach', 'list']);
  });
});
