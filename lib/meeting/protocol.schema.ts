// The bodies the browser posts to the signaling server (protocol.ts), as the server checks them.
// Apart from protocol.ts so that the meeting page, which only sends them, loads without zod.
import { z } from 'zod';
import { MAX_NAME_LENGTH, MAX_SIGNAL_BATCH, MAX_SIGNAL_BYTES } from './protocol';
import { passwordProofSchema } from './room-password.schema';

/** An ephemeral ECDH P-256 public key, uncompressed (65 bytes), base64url: 87 characters. */
export const keyRequestSchema = z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'incorrect_data');

export const joinRequestSchema = z.object({
  name: z.string().trim().max(MAX_NAME_LENGTH, 'incorrect_data').optional(),
  /** Never the password: the proof the browser derived from it (room-password.ts). */
  passwordProof: passwordProofSchema.optional(),
  /**
   * A newcomer without the room secret posts its handoff key with the join (docs/e2ee-crypto.md "Who gets
   * S": "their browser posts an ephemeral public key"): those present get it in the `join`
   * event and can hand S over at once, without a round trip of its own (issue 17).
   */
  keyRequest: keyRequestSchema.optional(),
});
export type JoinRequest = z.infer<typeof joinRequestSchema>;

// ---- browser → server (POST /signal) ----

const participantId = z.string().min(1).max(64);

export const clientMessageSchema = z.discriminatedUnion('type', [
  /**
   * A message for one peer, opaque to the server (docs/e2ee-crypto.md "Signaling"): a join announcement
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
