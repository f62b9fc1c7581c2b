/** @jest-environment node */
// The SFU side of a call carries out the machine's moves and says how each came out (issue 49
// point 1): a server without an SFU, a server that cannot give a ticket now, a Janus that refuses
// the join or goes away, a ticket renewal that fails. What the call does next (stay, back off,
// retry) is decided in call/route-decisions.ts (tests/unit/meeting-route-decisions.test.ts). Back
// on the mesh the SFU connections drain: every publisher is told goodbye first, and messages on
// their way still arrive (docs/meetings.md "Messages through the SFU"). The server's ticket and
// Janus are stand-ins here; meeting-sfu.spec.ts runs the real ones.
import type { SfuTicket } from '@/lib/meeting/protocol';
import type { MeetingCrypto } from '@/lib/meeting/client/keys/meeting-crypto';
import type { SfuMediaContext } from '@/lib/meeting/client/sfu/sfu-media';
import { SfuSession, type SfuMediaSide, type SfuSessionContext } from '@/lib/meeting/client/sfu/sfu-session';
import { DRAIN_MS } from '@/lib/meeting/client/sfu/sfu-data';
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
  regroupings = 0;
  regroup() {
    this.regroupings += 1;
  }
  peek() {}
  sendData() {
    return false;
  }
  draining = false;
  drain() {
    this.draining = true;
  }
  subscriptions() {
    return ['peer'];
  }
}

/**
 * A call of `participants()` people with the session under test. `tickets` answers the server's ticket
 * requests in turn (the last one again when they run out); `joins` says whether Janus takes each
 * join in turn (true when they run out).
 */
function call({ tickets, joins = [] }: { tickets: TicketAnswer[]; joins?: boolean[] }) {
  const asked: number[] = [];
  const started: FakeMedia[] = [];
  /** Each setViaSfu: the peers our links stop carrying media to. */
  const viaSfu: string[][] = [];
  /** What happened, in order: byes over the links, routes, connections closed. */
  const steps: string[] = [];
  let lost = 0;
  const ctx: SfuSessionContext = {
    selfId: 'self',
    participants: () => 6,
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
    setViaSfu: async (peers) => {
      viaSfu.push([...peers]);
      steps.push(`via sfu: ${[...peers].join(',')}`);
    },
    messages: {
      deliver: () => undefined,
      sendLink: (peerId, message) => {
        steps.push(`${message.t} to ${peerId}`);
        return true;
      },
    },
    showing: () => true,
    onLost: () => void (lost += 1),
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
      const close = media.close.bind(media);
      media.close = () => {
        if (!media.closed) steps.push('closed');
        close();
      };
      started.push(media);
      return media;
    },
  });
  return { session, asked, started, viaSfu, steps, lost: () => lost };
}

/** Lets the session's promise chains and timers run `ms` on. */
const elapse = (ms: number) => jest.advanceTimersByTimeAsync(ms);

beforeEach(() => jest.useFakeTimers({ now: 1_000_000, doNotFake: ['nextTick', 'setImmediate'] }));
afterEach(() => jest.useRealTimers());

it('answers "none" on a server without an SFU, and starts nothing', async () => {
  const { session, asked, started } = call({ tickets: ['none'] });
  expect(await session.toSfu()).toBe('none');
  expect(session.route).toBe('mesh');
  expect(asked).toHaveLength(1);
  expect(started).toHaveLength(0);
  session.close();
});

it('answers "failed" while the server cannot give a ticket, then "sfu" when it can', async () => {
  const { session, viaSfu } = call({ tickets: ['failed', ticket(Date.now() + 600_000)] });
  expect(await session.toSfu()).toBe('failed');
  expect(session.route).toBe('mesh');
  expect(await session.toSfu()).toBe('sfu');
  expect(session.route).toBe('sfu');
  expect(viaSfu.at(-1)).toEqual(['peer']);
  session.close();
});

it('answers "failed" when Janus refuses the join', async () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const { session, started } = call({ tickets: [ticket(Date.now() + 600_000)], joins: [false, true] });
  expect(await session.toSfu()).toBe('failed');
  expect(session.route).toBe('mesh');
  expect(started).toHaveLength(1);
  expect(warn).toHaveBeenCalledWith('sfu start', expect.any(Error));
  warn.mockRestore();
  expect(await session.toSfu()).toBe('sfu');
  session.close();
  expect(started[1]!.closed).toBe(true);
});

it('tells the machine when Janus goes away, and puts the media back on the links when told to', async () => {
  const { session, started, viaSfu, lost } = call({ tickets: [ticket(Date.now() + 600_000)] });
  expect(await session.toSfu()).toBe('sfu');
  started[0]!.ctx.onLost!();
  expect(lost()).toBe(1);
  await session.toMesh();
  expect(session.route).toBe('mesh');
  expect(started[0]!.closed).toBe(true);
  // The links carry our media to everyone again.
  expect(viaSfu.at(-1)).toEqual([]);
  session.close();
});

it('renews the ticket a minute before it expires, asking again after a failed renewal', async () => {
  const expiresAt = Date.now() + 10 * 60_000;
  const { session, started, asked } = call({ tickets: [ticket(expiresAt), 'failed', ticket(expiresAt + 600_000)] });
  expect(await session.toSfu()).toBe('sfu');
  await elapse(9 * 60_000 - 1);
  expect(asked).toHaveLength(1);
  await elapse(1);
  expect(asked).toHaveLength(2);
  expect(started[0]!.renewed).toEqual([]);
  await elapse(30_000);
  expect(started[0]!.renewed).toEqual([`token-${expiresAt + 600_000}`]);
  expect(session.route).toBe('sfu');
  session.close();
  expect(started[0]!.closed).toBe(true);
});

describe('back to the mesh, the SFU connections drain', () => {
  it('tells every publisher goodbye first, then keeps the connection DRAIN_MS for messages on their way', async () => {
    const { session, started, steps } = call({ tickets: [ticket(Date.now() + 600_000)] });
    expect(await session.toSfu()).toBe('sfu');
    steps.length = 0;
    await session.toMesh();
    expect(session.route).toBe('mesh');
    // The bye before the media goes back on the links, and the connection still open.
    expect(steps).toEqual(['sfu-bye to peer', 'via sfu: ']);
    expect(started[0]!.draining).toBe(true);
    await elapse(DRAIN_MS - 1);
    expect(started[0]!.closed).toBe(false);
    await elapse(1);
    expect(steps).toEqual(['sfu-bye to peer', 'via sfu: ', 'closed']);
    session.close();
  });

  it('re-routes no media on a publisher event during the drain: the draining connection is no longer ours', async () => {
    const { session, started, viaSfu } = call({ tickets: [ticket(Date.now() + 600_000)] });
    expect(await session.toSfu()).toBe('sfu');
    await session.toMesh();
    const routes = viaSfu.length;
    // Janus reports publishers (someone leaving its room, someone still coming) while we drain.
    started[0]!.ctx.onPublishers!(['peer', 'late']);
    await elapse(0);
    expect(viaSfu).toHaveLength(routes);
    expect(viaSfu.at(-1)).toEqual([]);
    session.close();
  });

  it('a move back to the SFU during the drain ends it first: Janus takes one publisher per id', async () => {
    const { session, started, steps } = call({ tickets: [ticket(Date.now() + 600_000)] });
    expect(await session.toSfu()).toBe('sfu');
    await session.toMesh();
    await elapse(DRAIN_MS / 3);
    steps.length = 0;
    expect(await session.toSfu()).toBe('sfu');
    expect(started[0]!.closed).toBe(true);
    expect(steps[0]).toBe('closed');
    expect(started[1]!.closed).toBe(false);
    // The old drain's timer closes nothing of the new connection.
    await elapse(DRAIN_MS);
    expect(started[1]!.closed).toBe(false);
    session.close();
    expect(started[1]!.closed).toBe(true);
  });

  it('does not wait after a loss: failover closes the dead connection at once', async () => {
    const { session, started, steps, lost } = call({ tickets: [ticket(Date.now() + 600_000)] });
    expect(await session.toSfu()).toBe('sfu');
    steps.length = 0;
    started[0]!.ctx.onLost!();
    expect(lost()).toBe(1);
    await session.toMesh();
    expect(started[0]!.closed).toBe(true);
    expect(started[0]!.draining).toBe(false);
    // A peer whose Janus still runs stops sending to us there.
    expect(steps[0]).toBe('sfu-bye to peer');
    // The next move starts a connection that drains again.
    expect(await session.toSfu()).toBe('sfu');
    await session.toMesh();
    expect(started[1]!.draining).toBe(true);
    session.close();
  });
});
