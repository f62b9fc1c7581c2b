/** @jest-environment node */
// The SFU side of a call when things go wrong (issue 38): a server without an SFU, a server that
// cannot give a ticket now, a Janus that refuses the join or goes away, a ticket renewal that
// fails. Each leaves the call on the mesh and, but for the first, tries the SFU again after
// RETRY_MS. The server's ticket and Janus are stand-ins here; meeting-sfu.spec.ts runs the real ones.
import type { SfuTicket } from '@/lib/meeting/protocol';
import type { MeetingCrypto } from '@/lib/meeting/client/keys/meeting-crypto';
import { AUTO } from '@/lib/meeting/client/call/route-pin';
import type { SfuMediaContext } from '@/lib/meeting/client/sfu/sfu-media';
import { RETRY_MS, SfuSession, type SfuMediaSide, type SfuSessionContext } from '@/lib/meeting/client/sfu/sfu-session';
import type { TicketAnswer } from '@/lib/meeting/client/signaling/sfu-ticket';

const ticket = (expiresAt: number): SfuTicket => ({ url: 'ws://127.0.0.1:1', room: 'room', token: `token-${expiresAt}`, roomToken: 'pass', expiresAt });

/** What the stand-in Janus connection saw. */
class FakeMedia implements SfuMediaSide {
  closed = false;
  readonly renewed: string[] = [];
  readonly audioReceivers = new Map<string, RTCRtpReceiver>();
  constructor(readonly ctx: SfuMediaContext) {}
  publishing() {
    return ['peer'];
  }
  async setTrack() {}
  renew(next: SfuTicket) {
    this.renewed.push(next.token);
  }
  async setLayer() {}
  connections() {
    return [];
  }
  close() {
    this.closed = true;
  }
}

/**
 * A call of `participants()` people with the session under test. `tickets` answers the server's ticket
 * requests in turn (the last one again when they run out); `joins` says whether Janus takes each
 * join in turn (true when they run out).
 */
function call({ participants = () => 6, tickets, joins = [] }: { participants?: () => number; tickets: TicketAnswer[]; joins?: boolean[] }) {
  const asked: number[] = [];
  const started: FakeMedia[] = [];
  /** Each setViaSfu: the peers our links stop carrying media to. */
  const viaSfu: string[][] = [];
  const ctx: SfuSessionContext = {
    selfId: 'self',
    pin: AUTO,
    participants,
    verifiedPeers: () => [],
    keys: () =>
      ({
        frames: {
          setSendKey: async () => undefined,
          setReceiveKey: async () => undefined,
          dropReceiveKey: async () => undefined,
          setFrameSigner: async () => undefined,
          setFrameVerifier: async () => undefined,
        },
        pairSecret: () => null,
        meetingId: 'm',
        selfId: 'self',
      }) as unknown as MeetingCrypto,
    rtcConfig: () => ({}),
    tracks: () => ({ audio: null, camera: null, screen: null }),
    meetingId: 'm',
    token: 'join-token',
    sendSignal: () => undefined,
    onRemoteTrack: () => undefined,
    setViaSfu: async (peers) => void viaSfu.push([...peers]),
    showing: () => true,
  };
  const session = new SfuSession(ctx, {
    fetchTicket: async () => {
      asked.push(Date.now());
      return tickets[Math.min(asked.length, tickets.length) - 1]!;
    },
    startMedia: async (mediaCtx) => {
      if (joins[started.length] === false) {
        started.push(new FakeMedia(mediaCtx));
        throw new Error('janus: refused');
      }
      const media = new FakeMedia(mediaCtx);
      started.push(media);
      return media;
    },
  });
  return { session, asked, started, viaSfu };
}

/** Lets the session's promise chains and timers run `ms` on. */
const elapse = (ms: number) => jest.advanceTimersByTimeAsync(ms);
const realTimeout = globalThis.setTimeout;
/**
 * Waits, in real time, for the session's route: a move makes our sender key with WebCrypto, whose
 * work ends on Node's thread pool, outside the fake clock.
 */
async function routeBecomes(session: SfuSession, route: 'mesh' | 'sfu') {
  for (let tries = 0; tries < 200 && session.route !== route; tries += 1) {
    await new Promise((resolve) => realTimeout(resolve, 5));
    await elapse(0);
  }
  expect(session.route).toBe(route);
}

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());

it('stays a mesh for good on a server without an SFU', async () => {
  const { session, asked } = call({ tickets: ['none'] });
  await session.update();
  expect(session.route).toBe('mesh');
  await elapse(RETRY_MS * 3);
  await session.update();
  expect(asked).toHaveLength(1);
  session.close();
});

it('stays a mesh while the server cannot give a ticket, and moves RETRY_MS later when it can', async () => {
  const { session, asked, viaSfu } = call({ tickets: ['failed', ticket(Date.now() + 600_000)] });
  await session.update();
  expect(session.route).toBe('mesh');
  // Someone else comes meanwhile: no new request before RETRY_MS.
  await elapse(RETRY_MS / 2);
  await session.update();
  expect(asked).toHaveLength(1);
  await elapse(RETRY_MS / 2);
  expect(asked).toHaveLength(2);
  await routeBecomes(session, 'sfu');
  expect(viaSfu.at(-1)).toEqual(['peer']);
  session.close();
});

it('goes back to the mesh when Janus refuses the join, and tries again', async () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const { session, started } = call({ tickets: [ticket(Date.now() + 600_000)], joins: [false, true] });
  await session.update();
  expect(session.route).toBe('mesh');
  expect(started).toHaveLength(1);
  expect(warn).toHaveBeenCalledWith('sfu start', expect.any(Error));
  warn.mockRestore();
  await elapse(RETRY_MS);
  await routeBecomes(session, 'sfu');
  expect(started).toHaveLength(2);
  session.close();
});

it('puts the media back on the links when Janus goes away, and returns to the SFU after RETRY_MS', async () => {
  const { session, started, viaSfu } = call({ tickets: [ticket(Date.now() + 600_000)] });
  await session.update();
  expect(session.route).toBe('sfu');
  started[0]!.ctx.onLost!();
  await routeBecomes(session, 'mesh');
  expect(started[0]!.closed).toBe(true);
  // The links carry our media to everyone again.
  expect(viaSfu.at(-1)).toEqual([]);
  await elapse(RETRY_MS - 1);
  expect(started).toHaveLength(1);
  await elapse(1);
  await routeBecomes(session, 'sfu');
  expect(started).toHaveLength(2);
  session.close();
  expect(started[1]!.closed).toBe(true);
});

it('renews the ticket a minute before it expires, asking again after a failed renewal', async () => {
  const expiresAt = Date.now() + 10 * 60_000;
  const { session, started, asked } = call({ tickets: [ticket(expiresAt), 'failed', ticket(expiresAt + 600_000)] });
  await session.update();
  await elapse(9 * 60_000 - 1);
  expect(asked).toHaveLength(1);
  await elapse(1);
  expect(asked).toHaveLength(2);
  expect(started[0]!.renewed).toEqual([]);
  await elapse(RETRY_MS);
  expect(started[0]!.renewed).toEqual([`token-${expiresAt + 600_000}`]);
  expect(session.route).toBe('sfu');
  session.close();
});

it('goes back to the mesh when the call shrinks, and closes its Janus connection', async () => {
  let participants = 6;
  const { session, started, viaSfu } = call({ participants: () => participants, tickets: [ticket(Date.now() + 600_000)] });
  await session.update();
  expect(session.route).toBe('sfu');
  participants = 5;
  await session.update();
  expect(session.route).toBe('sfu');
  participants = 4;
  await session.update();
  expect(session.route).toBe('mesh');
  expect(started[0]!.closed).toBe(true);
  expect(viaSfu.at(-1)).toEqual([]);
  session.close();
});
