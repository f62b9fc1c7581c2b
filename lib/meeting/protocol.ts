// The meeting's wire protocol between the browser and the signaling server (docs/design.md
// "Meetings"). Shared by both sides: no server-only or DOM code here.
//
//   POST /api/meeting/{id}/join   { name?, passwordProof?, keyRequest? } → JoinAnswer (a join token)
//   GET  /api/meeting/{id}                                     → MeetingInfo (for the lobby)
//   GET  /api/meeting/{id}/signal  Authorization: Bearer …     → text/event-stream of ServerEvent
//   POST /api/meeting/{id}/signal  Authorization: Bearer …     ClientMessage → { status: "ok" }
//   GET  /api/meeting/{id}/ice     Authorization: Bearer …     → IceAnswer
//   POST /api/meeting/{id}/sfu     Authorization: Bearer …     → SfuTicket (issue 38: an admitted
//                                  participant's pass to the meeting's room on a Janus node)
//
// The join token travels in a header, never in a URL, so it stays out of access logs. The
// stream is read with fetch() (not EventSource, which cannot send headers); the client
// reconnects with `Last-Event-ID` and the server replays what it missed.

/** docs/design.md: a signaling message is at most 16 KB. */
export const MAX_SIGNAL_BYTES = 16 * 1024;
/**
 * Messages for one peer that waited while the previous POST was on its way go up together, in
 * order (issue 17: an offer and its candidates one round trip apart cost a join hundreds of ms).
 */
export const MAX_SIGNAL_BATCH = 16;
export const MAX_SIGNAL_BODY_BYTES = 64 * 1024;
/** SPEC point 9: 30 participants per meeting, 2 on a trial. */
export const MAX_PARTICIPANTS = 30;
export const TRIAL_PARTICIPANTS = 2;
/** A participant's display name. */
export const MAX_NAME_LENGTH = 60;
/** The server sends a comment line this often, so proxies keep the stream open. */
export const HEARTBEAT_MS = 10_000;

export interface Participant {
  id: string;
  name: string;
  isHost: boolean;
}

/**
 * "Calls in this room" (issue 38), the host's choice: 'auto' goes through the SFU from a size on
 * (lib/meeting/client/call/route-pin.ts AUTO), 'mesh' and 'sfu' pin the route whatever the size.
 */
export const ROOM_MEDIA_ROUTES = ['auto', 'mesh', 'sfu'] as const;
export type RoomMediaRoute = (typeof ROOM_MEDIA_ROUTES)[number];

export interface MeetingInfo {
  meetingId: string;
  roomName: string;
  hasPassword: boolean;
  /** The salt the browser stretches the password with; null without a password. */
  passwordSalt: string | null;
  askToJoin: boolean;
  /** How the room's calls carry media: the page's `?media=` / `?sfuFrom=` still wins (call/route-pin.ts routePin). */
  mediaRoute: RoomMediaRoute;
  /** This server has an SFU (SFU_URLS and SFU_SECRET): a call that grows goes through it. */
  sfu: boolean;
  /** The signed-in user owns the room: no waiting, host controls (the password is still asked: it is part of the key). */
  isHost: boolean;
  /** The signed-in user's name, to prefill the lobby. */
  userName: string | null;
  maxParticipants: number;
  participantCount: number;
  locked: boolean;
}

export interface JoinAnswer {
  token: string;
  self: Participant;
  /** false: the participant knocks and waits in the lobby until the host admits them. */
  admitted: boolean;
  maxParticipants: number;
  roomName: string;
  /**
   * The ICE servers (time-limited TURN credentials), so that the first connection needs no
   * round trip of its own after the click (issue 17); GET …/ice still answers the same.
   */
  ice: IceAnswer;
  /** Bytes: the largest file a participant may send or receive in the call (MEETING_FILE_LIMIT_MB). */
  fileLimitBytes: number;
}

export interface IceAnswer {
  iceServers: { urls: string[]; username?: string; credential?: string }[];
  iceTransportPolicy: 'all' | 'relay';
}

/**
 * Issue 38: what a browser needs to publish and subscribe through the SFU (Janus VideoRoom).
 * Janus sees only SFrame ciphertext (the room requires end-to-end encrypted streams); this pass
 * lets a participant in, never read anything.
 */
export interface SfuTicket {
  /** The Janus node's WebSocket address as browsers reach it (wss://…, or ws:// on loopback). */
  url: string;
  /**
   * The meeting's VideoRoom room id on that node. A string: the rooms use Janus's string_ids, so
   * that a publisher's id is the participant's id in the roster (deploy/janus).
   */
  room: string;
  /** Janus's signed core token (token_auth_secret), valid for the VideoRoom plugin only. */
  token: string;
  /** This participant's entry in the room's `allowed` list: the `token` of its join requests. */
  roomToken: string;
  /** Unix milliseconds after which `token` no longer opens a new Janus session. */
  expiresAt: number;
}

// ---- browser → server (POST /signal) ----

// The request bodies (ClientMessage, JoinRequest) and their schemas are in protocol.schema.ts: the
// server's, so that zod stays out of the meeting page's script (issue 17 goal 4).

// ---- server → browser (the event stream; `event:` is the type, `data:` the JSON) ----

export type ServerEvent =
  /** First event on every (re)connection of an admitted participant. */
  | { type: 'welcome'; self: Participant; participants: Participant[]; locked: boolean }
  /** First event for a participant who must wait to be admitted. */
  | { type: 'waiting'; self: Participant }
  | { type: 'admitted'; participants: Participant[]; locked: boolean }
  | { type: 'denied' }
  /** Someone entered the call; `keyRequest` when they arrived without the room secret. */
  | { type: 'join'; participant: Participant; keyRequest?: string }
  | { type: 'leave'; participantId: string; reason: 'left' | 'lost' | 'removed' }
  | { type: 'signal'; from: string; envelope: string }
  /** To the host: someone knocks, or stopped waiting. */
  | { type: 'knock'; participant: Participant }
  | { type: 'knock-cancelled'; participantId: string }
  /** To one participant: the host muted their microphone, or asks them to unmute. */
  | { type: 'muted'; from: string }
  | { type: 'unmute-request'; from: string }
  /** To the removed participant; their stream then ends and the token stops working. */
  | { type: 'removed' }
  | { type: 'locked'; locked: boolean };
