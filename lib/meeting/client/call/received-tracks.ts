// Which of a peer's received tracks the call shows and plays. A peer's media reaches us over our
// link to them or through the SFU, each connection with tracks of its own, and their track events
// come in whatever order the two are negotiated: the last one to arrive used to win. A link that
// finished negotiating after the SFU's subscription left the tile on the link's track, which the
// peer no longer sends on (sfu/sfu-session.ts setViaSfu): a dark tile and silence, although every
// frame through Janus opened (seen on CI, tests/e2e/meeting-policy-entry.spec.ts). And back on the
// mesh nothing fired at all, so the tile kept the SFU's ended track. Both are kept here; the peer
// shows the one of the route its media takes now, or the other while that one has none yet.
import type { MachineState, ReceivedTracks, RemotePeer, TrackSource } from './meeting-state';
import type { Slot } from '../links/slots';

type Tracks = RemotePeer['tracks'];
type ReceivedEvent = { type: 'remote-track'; peerId: string; source: TrackSource; slot: Slot; track: MediaStreamTrack } | { type: 'via-sfu'; peers: string[] };

/** The state after a track arrived or the SFU's publishers changed: each peer's `tracks` follow. */
export function receive(state: MachineState, event: ReceivedEvent): MachineState {
  const known = (id: string) => state.view.peers.some((peer) => peer.id === id);
  let { received, viaSfu } = state;
  if (event.type === 'via-sfu') viaSfu = event.peers;
  else if (known(event.peerId)) {
    const from = received[event.peerId] ?? { link: {}, sfu: {} };
    received = { ...received, [event.peerId]: { ...from, [event.source]: { ...from[event.source], [event.slot]: event.track } } };
  }
  if (received === state.received && viaSfu === state.viaSfu) return state;
  const peers = state.view.peers.map((peer) => {
    const tracks = shown(received[peer.id], viaSfu.includes(peer.id));
    return sameTracks(peer.tracks, tracks) ? peer : { ...peer, tracks };
  });
  return { ...state, received, viaSfu, view: { ...state.view, peers } };
}

/** The received tracks without those of a peer who left. */
export function forgetTracks(received: ReceivedTracks, peerId: string): ReceivedTracks {
  const { [peerId]: _gone, ...rest } = received;
  void _gone;
  return rest;
}

/** Per slot, the track of the route the peer's media takes now, else the other's. */
function shown(from: Record<TrackSource, Tracks> | undefined, viaSfu: boolean): Tracks {
  if (!from) return {};
  const [first, second] = viaSfu ? [from.sfu, from.link] : [from.link, from.sfu];
  return { ...second, ...first };
}

function sameTracks(a: Tracks, b: Tracks): boolean {
  const slots = new Set([...Object.keys(a), ...Object.keys(b)] as Slot[]);
  return [...slots].every((slot) => a[slot] === b[slot]);
}
