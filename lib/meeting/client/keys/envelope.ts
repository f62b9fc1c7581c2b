// What participants send each other through the signaling server (docs/e2ee-crypto.md "Signaling"). The
// server relays the JSON string untouched; every field is checked here before anything is used,
// and only the known fields are kept. Checked by hand, as peer-messages.ts is: zod was 30 KB
// gzipped of the meeting page's script for these few shapes (issue 17 goal 4).
import { MAX_SIGNAL_BYTES } from '@/lib/meeting/protocol';
import type { JoinAnnouncement } from '@/lib/meeting/e2ee/signing';

export type Envelope =
  /** "I am here, with these keys": tagged under the room secret; `reply` asks for no answer. */
  | { k: 'hello'; announcement: JoinAnnouncement; reply: boolean }
  /** A newcomer without the secret asks for it, encrypted to this one-time key. */
  | { k: 'handoff-request'; key: string }
  /** A holder's answer: the secret and epoch, sealed to the newcomer's key. */
  | { k: 'handoff'; holderKey: string; box: string }
  /** Everything else (descriptions, candidates), signed by the sender's meeting key; `body` is checked once the signature is. */
  | { k: 'signed'; signal: { from: string; to: string | null; seq: number; body: unknown; sig: string } };

/**
 * The body of a signed signal: one WebRTC description or one ICE candidate (null = the end), or
 * (through the SFU, issue 38) the sender's media key of one generation, sealed to the receiver.
 */
export type SignalBody =
  | { description: { type: 'offer' | 'answer' | 'pranswer' | 'rollback'; sdp?: string } }
  | { candidate: { candidate: string; sdpMid?: string | null; sdpMLineIndex?: number | null; usernameFragment?: string | null } | null }
  | { senderKey: { generation: number; box: string } };
/** What a link's negotiation uses: a description or a candidate. */
export type LinkSignalBody = Exclude<SignalBody, { senderKey: unknown }>;

type Fields = Record<string, unknown>;

/** A JSON object (not an array, not null). */
function fields(value: unknown): Fields | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : null;
}

function isText(value: unknown, min: number, max: number): value is string {
  return typeof value === 'string' && value.length >= min && value.length <= max;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
function isBase64url(value: unknown): value is string {
  return isText(value, 0, 512) && BASE64URL.test(value);
}

const isId = (value: unknown): value is string => isText(value, 1, 64);

function announcement(value: unknown): JoinAnnouncement | null {
  const a = fields(value);
  if (!a || !isId(a.id) || !isBase64url(a.signingKey) || !isBase64url(a.ecdhKey) || !isText(a.fingerprint, 0, 200) || !isBase64url(a.tag)) return null;
  return { id: a.id, signingKey: a.signingKey, ecdhKey: a.ecdhKey, fingerprint: a.fingerprint, tag: a.tag };
}

function envelope(value: unknown): Envelope | null {
  const e = fields(value);
  switch (e?.k) {
    case 'hello': {
      const announced = announcement(e.announcement);
      return announced && typeof e.reply === 'boolean' ? { k: 'hello', announcement: announced, reply: e.reply } : null;
    }
    case 'handoff-request':
      return isBase64url(e.key) ? { k: 'handoff-request', key: e.key } : null;
    case 'handoff':
      return isBase64url(e.holderKey) && isBase64url(e.box) ? { k: 'handoff', holderKey: e.holderKey, box: e.box } : null;
    case 'signed': {
      const s = fields(e.signal);
      if (!s || !isId(s.from) || !(s.to === null || isId(s.to)) || !Number.isSafeInteger(s.seq) || (s.seq as number) <= 0 || !isBase64url(s.sig)) return null;
      return { k: 'signed', signal: { from: s.from, to: s.to, seq: s.seq as number, body: s.body, sig: s.sig } };
    }
    default:
      return null;
  }
}

export function parseEnvelope(text: string): Envelope | null {
  try {
    return envelope(JSON.parse(text));
  } catch {
    return null;
  }
}

const DESCRIPTION_TYPES = ['offer', 'answer', 'pranswer', 'rollback'] as const;
type DescriptionType = (typeof DESCRIPTION_TYPES)[number];

/** Absent, null, or what `check` accepts: an optional nullable field. */
function optionalNullable<T>(value: unknown, check: (value: unknown) => value is T): value is T | null | undefined {
  return value === undefined || value === null || check(value);
}

const isMid = (mid: unknown): mid is string => isText(mid, 0, 64);
const isLineIndex = (index: unknown): index is number => Number.isSafeInteger(index) && (index as number) >= 0 && (index as number) <= 64;
const isFragment = (fragment: unknown): fragment is string => isText(fragment, 0, 256);

/** A checked ICE candidate, null for the end of candidates, undefined when it is not one. */
function candidate(value: unknown): Extract<SignalBody, { candidate: unknown }>['candidate'] | undefined {
  if (value === null) return null;
  const c = fields(value);
  if (!c || !isText(c.candidate, 0, 2048)) return undefined;
  if (!optionalNullable(c.sdpMid, isMid) || !optionalNullable(c.sdpMLineIndex, isLineIndex) || !optionalNullable(c.usernameFragment, isFragment))
    return undefined;
  return {
    candidate: c.candidate,
    ...(c.sdpMid !== undefined && { sdpMid: c.sdpMid }),
    ...(c.sdpMLineIndex !== undefined && { sdpMLineIndex: c.sdpMLineIndex }),
    ...(c.usernameFragment !== undefined && { usernameFragment: c.usernameFragment }),
  };
}

export function parseSignalBody(body: unknown): SignalBody | null {
  const b = fields(body);
  if (!b) return null;
  const k = fields(b.senderKey);
  if (k) {
    const generation = k.generation;
    return Number.isSafeInteger(generation) && (generation as number) >= 0 && (generation as number) <= 0xffffffff && isBase64url(k.box)
      ? { senderKey: { generation: generation as number, box: k.box } }
      : null;
  }
  const d = fields(b.description);
  if (d && DESCRIPTION_TYPES.includes(d.type as DescriptionType) && (d.sdp === undefined || isText(d.sdp, 0, MAX_SIGNAL_BYTES)))
    return { description: { type: d.type as DescriptionType, ...(d.sdp !== undefined && { sdp: d.sdp }) } };
  if (!('candidate' in b)) return null;
  const checked = candidate(b.candidate);
  return checked === undefined ? null : { candidate: checked };
}
