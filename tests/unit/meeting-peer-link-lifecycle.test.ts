/** @jest-environment node */
// PeerLink once negotiated, in Node: the sealed data channel, ICE restarts, the warm-up and the
// encoding budget, and close. Negotiation and candidates: meeting-peer-link.test.ts.
import { WARM_UP_MS } from '@/lib/meeting/client/media/encoding-policy';
import { POLITE_RESTART_DELAY_MS } from '@/lib/meeting/client/links/peer';
import { link, offer, settle, installFakeWebRtc } from '../support/fake-peer-connection';

installFakeWebRtc();

describe('PeerLink', () => {
  it('the data channel sends only sealed messages, in order, and only when open', async () => {
    const { peer, pc } = link();
    expect(peer.send({ t: 'hand' })).toBe(false);
    pc.channel.readyState = 'open';
    expect(peer.send({ n: 1 })).toBe(true);
    expect(peer.send({ n: 2 })).toBe(true);
    await settle();
    expect(pc.channel.sent.map((data) => new TextDecoder().decode(data))).toEqual(['sealed:{"n":1}', 'sealed:{"n":2}']);
  });

  it('received: sealed messages are opened in order; plain text, unsealed or oversized data is refused', async () => {
    const { pc, messages } = link();
    const bytes = (text: string) => new TextEncoder().encode(text).buffer;
    for (const data of [
      bytes('sealed:{"n":1}'),
      'sealed:{"n":2}',
      bytes('{"n":3}'),
      new ArrayBuffer(97 * 1024),
      bytes('sealed:not json'),
      bytes('sealed:{"n":4}'),
    ])
      pc.channel.onmessage?.({ data });
    await settle();
    await settle();
    expect(messages).toEqual([{ n: 1 }, { n: 4 }]);
  });

  it('a failed connection restarts ICE at once; a disconnected one only if it stays so', () => {
    jest.useFakeTimers();
    try {
      const { pc, states } = link();
      pc.becomes('failed');
      expect(pc.iceRestarts).toBe(1);
      pc.becomes('disconnected');
      jest.advanceTimersByTime(3000);
      pc.becomes('connected');
      jest.advanceTimersByTime(5000);
      expect(pc.iceRestarts).toBe(1);
      pc.becomes('disconnected');
      jest.advanceTimersByTime(5000);
      expect(pc.iceRestarts).toBe(2);
      expect(states).toEqual(['failed', 'disconnected', 'connected', 'disconnected']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('the polite side leaves ICE restarts to the impolite one, so their offers never cross', async () => {
    jest.useFakeTimers();
    try {
      // Both sides see the same outage at once; only the impolite one restarts then.
      const impolite = link({ polite: false });
      const polite = link({ polite: true, initiator: false });
      await polite.peer.handleSignal(offer);
      impolite.pc.becomes('failed');
      polite.pc.becomes('failed');
      expect([impolite.pc.iceRestarts, polite.pc.iceRestarts]).toEqual([1, 0]);
      // The impolite side's restart offer arrives: the polite side answers and makes none of its own.
      await polite.peer.handleSignal(offer);
      jest.advanceTimersByTime(POLITE_RESTART_DELAY_MS * 2);
      expect(polite.pc.iceRestarts).toBe(0);
      // Back before its turn: nothing to restart.
      polite.pc.becomes('disconnected');
      jest.advanceTimersByTime(4000 + POLITE_RESTART_DELAY_MS - 1);
      polite.pc.becomes('connected');
      jest.advanceTimersByTime(POLITE_RESTART_DELAY_MS);
      expect(polite.pc.iceRestarts).toBe(0);
      // Down on its side only (no offer comes): it restarts alone, once, after its wait.
      polite.pc.becomes('failed');
      polite.peer.restartIce();
      jest.advanceTimersByTime(POLITE_RESTART_DELAY_MS - 1);
      expect(polite.pc.iceRestarts).toBe(0);
      jest.advanceTimersByTime(1);
      expect(polite.pc.iceRestarts).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('warms up once: WARM_UP_MS after it first connects, never again after a reconnection, never after close', () => {
    jest.useFakeTimers();
    try {
      let warmedUp = 0;
      const { peer, pc } = link({ onWarmedUp: () => (warmedUp += 1) });
      pc.becomes('connecting');
      jest.advanceTimersByTime(WARM_UP_MS * 2);
      expect(peer.warmedUp).toBe(false);
      pc.becomes('connected');
      jest.advanceTimersByTime(WARM_UP_MS - 1);
      expect([peer.warmedUp, warmedUp]).toEqual([false, 0]);
      // A drop and a recovery in the meantime do not start the wait over.
      pc.becomes('disconnected');
      pc.becomes('connected');
      jest.advanceTimersByTime(1);
      expect([peer.warmedUp, warmedUp]).toEqual([true, 1]);
      pc.becomes('disconnected');
      pc.becomes('connected');
      jest.advanceTimersByTime(WARM_UP_MS);
      expect(warmedUp).toBe(1);

      const closing = link({ onWarmedUp: () => (warmedUp += 1) });
      closing.pc.becomes('connected');
      closing.peer.close();
      jest.advanceTimersByTime(WARM_UP_MS);
      expect([closing.peer.warmedUp, warmedUp]).toEqual([false, 1]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('after close nothing more happens: no restart (not even a waiting one), no signal applied', async () => {
    jest.useFakeTimers();
    try {
      const { peer, pc } = link({ initiator: false, polite: true });
      peer.restartIce();
      peer.close();
      expect(pc.onconnectionstatechange).toBeNull();
      peer.restartIce();
      jest.advanceTimersByTime(POLITE_RESTART_DELAY_MS);
      await peer.handleSignal(offer);
      expect(pc.iceRestarts).toBe(0);
      expect(pc.remoteDescriptions).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('an unchanged encoding is not written again; a new one is', async () => {
    const { peer, pc } = link();
    const camera = pc.transceivers[1]!.sender;
    await peer.setEncoding('camera', { active: true, maxBitrate: 1000, maxFramerate: 30, scaleResolutionDownBy: 1 });
    expect(camera.parameterWrites).toBe(0);
    await peer.setEncoding('camera', { active: true, maxBitrate: 300, maxFramerate: 15, scaleResolutionDownBy: 2 });
    expect(camera.parameterWrites).toBe(1);
    expect(camera.encodings[0]).toMatchObject({ maxBitrate: 300, maxFramerate: 15, scaleResolutionDownBy: 2 });
  });

  it('an encoding already applied does not ask the browser again (getParameters waits for the signaling thread)', async () => {
    const { peer, pc } = link();
    const camera = pc.transceivers[1]!.sender;
    const lower = { active: true, maxBitrate: 300, maxFramerate: 15, scaleResolutionDownBy: 2 };
    await peer.setEncoding('camera', lower);
    await peer.setEncoding('camera', { ...lower });
    expect([camera.parameterReads, camera.parameterWrites]).toEqual([1, 1]);
  });

  it('the initiator\u2019s senders start with the policy\u2019s encodings, which are then not written again', async () => {
    const camera = { active: true, maxBitrate: 1_500_000, maxFramerate: 30, scaleResolutionDownBy: 1 };
    const { peer, pc } = link({ initialEncodings: { camera } });
    expect(pc.transceivers.map((t) => t.init?.sendEncodings)).toEqual([undefined, [camera], undefined]);
    await peer.setEncoding('camera', { ...camera });
    expect(pc.transceivers[1]!.sender.parameterReads).toBe(0);
  });

  it('swapping a track is a replaceTrack, never a new negotiation', async () => {
    const { peer, pc, signals } = link();
    await settle();
    expect(signals.map((s) => s.description?.type)).toEqual(['offer']);
    const screen = { id: 'screen' } as unknown as MediaStreamTrack;
    await peer.setTrack('screen', screen);
    expect(pc.transceivers[2]!.sender.track).toBe(screen);
    expect(signals).toHaveLength(1);
    expect(peer.negotiations).toBe(1);
  });
});
