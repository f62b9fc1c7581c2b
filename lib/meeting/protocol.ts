// The meeting's wire protocol between the browser and the signaling server (DESIGN.md
// "Meetings"). Shared by both sides: no server-only or DOM code here.
//
//   POST /api/meeting/{id}/join   { name?, passwordProof?, keyRequest? } → JoinAnswer (a join token)
//   GET  /api/meeting/{id}                                     → MeetingInfo (for the lobby)
//   GET  /api/meeting/{id}/signal  Authorization: Bearer …     → text/event-stream of ServerEvent
//   POST /api/meeting/{id}/signal  Authorization: Bearer …     ClientMessage → { status: "ok" }
//   GET  /api/meeting/{id}/ice     Authorization: Bearer …     → IceAnswer
//
// The join token travels in a header, never in a URL, so it stays out of access logs. The
// stream is read with fetch() (not EventSource, which cannot send headers); the client
// reconnects with `Last-Event-ID` and the server replays what it missed.
import { z } from 'zod';
import { passwordProofSchema } from './room-password';

/** DESIGN.md: a signaling message is at most 16 KB. */
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

/** An ephemeral ECDH P-256 public key, uncompressed (65 bytes), base64url: 87 characters. */
export const keyRequestSchema = z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'incorrect_data');

export const joinRequestSchema = z.object({
  name: z.string().trim().max(MAX_NAME_LENGTH, 'incorrect_data').optional(),
  /** Never the password: the proof the browser derived from it (room-password.ts). */
  passwordProof: passwordProofSchema.optional(),
  /**
   * A newcomer without the room secret posts its handoff key with the join (E2EE.md "Who gets
   * S": "their browser posts an ephemeral public key"): those present get it in the `join`
   * event and can hand S over at once, without a round trip of its own (issue 17).
   */
  keyRequest: keyRequestSchema.optional(),
});
export type JoinRequest = z.infer<typeof joinRequestSchema>;

export interface Participant {
  id: string;
  name: string;
  isHost: boolean;
}

export interface MeetingInfo {
  meetingId: string;
  roomName: string;
  hasPassword: boolean;
  /** The salt the browser stretches the password with; null without a password. */
  passwordSalt: string | null;
  askToJoin: boolean;
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
}

export interface IceAnswer {
  iceServers: { urls: string[]; username?: string; credential?: string }[];
  iceTransportPolicy: 'all' | 'relay';
}

// ---- browser → server (POST /signal) ----

const participantId = z.string().min(1).max(64);

export const clientMessageSchema = z.discriminatedUnion('type', [
  /**
   * A message for one peer, opaque to the server (E2EE.md "Signaling"): a join announcement
   * tagged under the room secret, a key handoff, or a signed, numbered WebRTC description or ICE
   * candidate. The server only relays it; the browsers check every signature.
   */
  z.object({
    type: z.literal('signal'),
    to: participantId,
    envelope: z.string().min(1).max(MAX_SIGNAL_BYTES),
  }),
  /** Several messages for one peer, relayed one by one in this order. */
  z.object({
    type: z.literal('signals'),
    to: participantId,
    envelopes: z.array(z.string().min(1).max(MAX_SIGNAL_BYTES)).min(1).max(MAX_SIGNAL_BATCH),
  }),
  /** Host only: act on another participant (`target`), or lock/unlock the meeting. */
  z.object({
    type: z.literal('host'),
    action: z.enum(['admit', 'deny', 'mute', 'ask-unmute', 'remove', 'lock', 'unlock']),
    target: participantId.optional(),
  }),
  /** Leaving on purpose: the others hear it at once instead of after the stream drops. */
  z.object({ type: z.literal('leave') }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

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

export type ServerEventType = ServerEvent['type'];
