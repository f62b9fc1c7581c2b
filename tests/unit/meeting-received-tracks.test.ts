/** @jest-environment node */
import type { MeetingEvent } from '@/lib/meeting/client/call/machine';
import type { Slot } from '@/lib/meeting/client/links/slots';
import { frozen, inCall, peer, run, server } from '../support/meeting-machine';

// What a peer's tile shows and what we hear of them: the track of the connection their media
// takes now (lib/meeting/client/call/received-tracks.ts), whichever connection's track event came last.

const track = (name: string) => ({ id: name }) as unknown as MediaStreamTrack;
const LINK = { audio: track('link audio'), camera: track('link camera') };
const SFU = { audio: track('sfu audio'), camera: track('sfu camera') };
const arrived = (source: 'link' | 'sfu', slot: Slot, peerId = 'x'): MeetingEvent => ({
  type: 'remote-track',
  peerId,
  source,
  slot,
  track: (source === 'link' ? LINK : SFU)[slot as 'audio' | 'camera'],
});
const viaSfu = (...peers: string[]): MeetingEvent => ({ type: 'via-sfu', peers });

describe("a peer's tracks follow the route their media takes", () => {
  it('on the mesh, the link’s tracks', () => {
    const { state } = run(frozen(inCall('x')), arrived('link', 'audio'), arrived('link', 'camera'));
    expect(peer(state, 'x')!.tracks).toEqual(LINK);
  });

  it('through the SFU, the SFU’s, even when the link’s tracks arrive after them (the race seen on CI)', () => {
    const { state } = run(
      frozen(inCall('x')),
      viaSfu('x'),
      arrived('sfu', 'audio'),
      arrived('sfu', 'camera'),
      arrived('link', 'audio'),
      arrived('link', 'camera'),
    );
    expect(peer(state, 'x')!.tracks).toEqual(SFU);
  });

  it('moving to the SFU, the link’s until the SFU’s arrive, slot by slot', () => {
    let { state } = run(frozen(inCall('x')), arrived('link', 'audio'), arrived('link', 'camera'), viaSfu('x'));
    expect(peer(state, 'x')!.tracks).toEqual(LINK);
    ({ state } = run(state, arrived('sfu', 'audio')));
    expect(peer(state, 'x')!.tracks).toEqual({ audio: SFU.audio, camera: LINK.camera });
  });

  it('back on the mesh, the link’s again, with no new track event', () => {
    const { state } = run(frozen(inCall('x')), arrived('link', 'audio'), viaSfu('x'), arrived('sfu', 'audio'), viaSfu());
    expect(peer(state, 'x')!.tracks).toEqual({ audio: LINK.audio });
  });

  it('each peer by their own route: one heard through the SFU, one still over the link', () => {
    const { state } = run(frozen(inCall('x', 'y')), arrived('link', 'audio', 'y'), arrived('sfu', 'audio', 'x'), arrived('link', 'audio', 'x'), viaSfu('x'));
    expect(peer(state, 'x')!.tracks).toEqual({ audio: SFU.audio });
    expect(peer(state, 'y')!.tracks).toEqual({ audio: LINK.audio });
  });

  it('a change that shows the same tracks keeps the peer as it was (no new render)', () => {
    const before = run(inCall('x', 'y'), arrived('link', 'audio', 'y')).state;
    const after = run(before, viaSfu('x')).state;
    expect(peer(after, 'y')).toBe(peer(before, 'y'));
  });

  it('tracks of someone unknown are not kept, and a peer who leaves takes theirs along', () => {
    expect(run(inCall('x'), arrived('link', 'audio', 'q')).state.received).toEqual({});
    const { state } = run(inCall('x'), arrived('link', 'audio'), server({ type: 'leave', participantId: 'x', reason: 'left' }));
    expect(state.received).toEqual({});
    expect(state.view.peers).toEqual([]);
  });
});
