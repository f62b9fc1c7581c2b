// The meeting machine's data (machine.ts): what the call screen renders, the machine's own
// bookkeeping, every event it takes and every effect it gives back. Plain types and values only.
import type { Participant, ServerEvent } from '@/lib/meeting/protocol';
import type { ChatMessage, Reaction } from './chat';
import type { EncryptionState, PeerKeyState } from '../keys/key-state';
import type { MediaState, PeerMessage } from './peer-messages';
import type { Slot } from '../links/slots';
import type { SignalingStatus } from '../signaling/status';
import type { Quality } from '../links/stats';
import { initialRoute, type RouteEffect, type RouteInput, type RouteState } from './route-decisions';
import type { MediaRoute, RoutePin } from './route-pin';

export type { ChatMessage, Reaction, EncryptionState };

export type Phase = 'connecting' | 'waiting' | 'in-call' | 'denied' | 'removed' | 'rejected' | 'left';
export type HostAction = 'admit' | 'deny' | 'mute' | 'ask-unmute' | 'remove';

export interface RemotePeer extends Participant {
  connection: RTCPeerConnectionState;
  tracks: Partial<Record<Slot, MediaStreamTrack>>;
  media: MediaState;
  quality: Quality;
  /**
   * Their announcement verified under our room secret (docs/e2ee-crypto.md): only then is a connection made.
   * "mismatch": they hold another secret; "tampered": their SDP's fingerprint was not the signed one.
   */
  keys: PeerKeyState;
}

/** What the call screen renders (React reads it through useSyncExternalStore). */
export interface SessionState {
  phase: Phase;
  signaling: SignalingStatus;
  self: Participant;
  peers: RemotePeer[];
  knocks: Participant[];
  locked: boolean;
  local: MediaState;
  /** Our own camera and screen, for our tiles. */
  localCamera: MediaStreamTrack | null;
  localScreen: MediaStreamTrack | null;
  chat: ChatMessage[];
  unreadChat: number;
  reactions: Reaction[];
  activeSpeaker: string | null;
  /** What the host did to us, for a one-time notice. */
  hostNotice: { kind: 'muted' | 'unmute-request'; at: number } | null;
  encryption: EncryptionState;
  /** Our media peer to peer or through the SFU (route-decisions.ts), for the call's route indicator. */
  mediaRoute: MediaRoute;
}

export interface MachineState {
  view: SessionState;
  /** Peers whose tile we hide (we told them so). */
  hidden: string[];
  /** Which peers show our camera (they say so); absent = shown. */
  viewers: Record<string, boolean>;
  chatOpen: boolean;
  /** When the active-speaker highlight last moved. */
  speakerChangedAt: number;
  /** Numbers reactions, so their ids need no randomness. */
  reactionCount: number;
  /** The media route's bookkeeping: a move under way, the refusal, the back-off. */
  route: RouteState;
  /** Every track received from each peer, by the connection that carries it (received-tracks.ts). */
  received: ReceivedTracks;
  /** The peers whose media reaches us through the SFU now; the others' comes over our link. */
  viaSfu: string[];
}

/** The connection a received track came on: our link to the peer, or the SFU. */
export type TrackSource = 'link' | 'sfu';
export type ReceivedTracks = Record<string, Record<TrackSource, Partial<Record<Slot, MediaStreamTrack>>>>;

export type MeetingEvent =
  // from the server, and about the stream itself
  | { type: 'server'; event: ServerEvent; at: number }
  | { type: 'stream-refused' }
  | { type: 'signaling'; status: SignalingStatus }
  | { type: 'network-online' }
  // what this participant does
  | { type: 'leave' }
  | { type: 'set-muted'; muted: boolean }
  | { type: 'camera'; track: MediaStreamTrack | null }
  | { type: 'screen'; track: MediaStreamTrack | null }
  | { type: 'hand'; hand: boolean }
  | { type: 'recording'; recording: boolean }
  | { type: 'send-chat'; id: string; text: string; at: number }
  | { type: 'react'; emoji: string }
  | { type: 'reaction-expired'; id: string }
  | { type: 'chat-open'; open: boolean }
  | { type: 'peer-visible'; peerId: string; visible: boolean }
  | { type: 'dismiss-notice' }
  // host actions: asked for, then the server's answer
  | { type: 'host-action'; action: HostAction; target: string }
  | { type: 'host-action-done'; action: HostAction; target: string; status: number }
  | { type: 'lock'; locked: boolean }
  | { type: 'lock-done'; locked: boolean; previous: boolean; status: number }
  // the connections
  | { type: 'peer-message'; from: string; raw: unknown }
  | { type: 'link-state'; peerId: string; connection: RTCPeerConnectionState }
  | { type: 'remote-track'; peerId: string; source: TrackSource; slot: Slot; track: MediaStreamTrack }
  /** The peers whose media reaches us through the SFU now (sfu-session.ts onPublishers; none back on the mesh). */
  | { type: 'via-sfu'; peers: string[] }
  | { type: 'channel-open'; peerId: string }
  // the key exchange's outcomes
  | { type: 'peer-keys'; peerId: string; keys: PeerKeyState }
  | { type: 'encryption'; encryption: EncryptionState }
  /** `theyHandedOff`: this peer gave us the key, so it offers to us. */
  | { type: 'peer-verified'; peerId: string; theyHandedOff: boolean }
  /** We handed the key to this newcomer: we offer, before their announcement comes back. */
  | { type: 'peer-handed-off'; peerId: string }
  | { type: 'peer-signal'; peerId: string }
  | { type: 'peer-tampered'; peerId: string }
  // the monitors
  | { type: 'levels'; levels: Record<string, number>; now: number }
  | { type: 'quality'; quality: Record<string, Quality> }
  // the SFU side's answers and timer (route-decisions.ts)
  | { type: 'route'; input: RouteInput };

export type Effect =
  /** Tell the server we leave on purpose: the others learn it at once. */
  | { type: 'announce-leave' }
  /** Close the stream and every connection, stop the monitors and the local tracks. */
  | { type: 'shutdown' }
  /** Make a connection to this peer unless there is one; the initiator makes the first offer. */
  | { type: 'open-link'; peerId: string; initiator: boolean }
  | { type: 'close-link'; peerId: string }
  | { type: 'broadcast'; message: PeerMessage }
  | { type: 'send-peer'; peerId: string; message: PeerMessage }
  /** The video budget depends on how many are in the call and who shows our camera. */
  | { type: 'apply-encodings' }
  | { type: 'microphone'; enabled: boolean }
  | { type: 'restart-ice' }
  | { type: 'expire-reaction'; id: string; afterMs: number }
  | { type: 'keys-enter'; others: string[] }
  | { type: 'keys-receive'; from: string; envelope: string }
  | { type: 'keys-release'; peerId: string }
  | { type: 'keys-forget'; peerId: string }
  | { type: 'keys-let-in'; peerId: string; confirmed: boolean }
  | { type: 'keys-accept-rekey'; epoch: number; secret: string }
  /** docs/e2ee-crypto.md "Kick": a fresh secret and epoch for everyone but the removed participant. */
  | { type: 'rekey'; removed: string }
  /** Move our media to the SFU or back, or ask again later. */
  | { type: 'route'; effect: RouteEffect };

export interface Step {
  state: MachineState;
  effects: Effect[];
}

const ENDED: readonly Phase[] = ['left', 'removed', 'denied', 'rejected'];
export const isEnded = (phase: Phase) => ENDED.includes(phase);
export function initialState(options: {
  self: Participant;
  local: MediaState;
  camera: MediaStreamTrack | null;
  password: boolean;
  pin?: RoutePin;
  /** route-pin.ts linksUpToOf. */
  linksUpTo?: number;
  /** MeetingInfo.sfu: false, and the call never asks for a ticket. */
  serverHasSfu?: boolean;
}): MachineState {
  return {
    view: {
      phase: 'connecting',
      signaling: 'connecting',
      self: options.self,
      peers: [],
      knocks: [],
      locked: false,
      local: options.local,
      localCamera: options.camera,
      localScreen: null,
      chat: [],
      unreadChat: 0,
      reactions: [],
      activeSpeaker: null,
      hostNotice: null,
      encryption: { status: 'starting', source: null, epoch: 0, password: options.password },
      mediaRoute: 'mesh',
    },
    hidden: [],
    viewers: {},
    chatOpen: false,
    speakerChangedAt: 0,
    reactionCount: 0,
    route: initialRoute(options.pin, options.linksUpTo, options.serverHasSfu),
    received: {},
    viaSfu: [],
  };
}
