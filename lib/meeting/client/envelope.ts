// What participants send each other through the signaling server (E2EE.md "Signaling"). The
// server relays the JSON string untouched; every field is checked here before anything is used.
import { z } from 'zod';
import { MAX_SIGNAL_BYTES } from '@/lib/meeting/protocol';

const b64 = z.string().max(512).regex(/^[A-Za-z0-9_-]*$/);

const announcementSchema = z.object({
  id: z.string().min(1).max(64),
  signingKey: b64,
  ecdhKey: b64,
  fingerprint: z.string().max(200),
  tag: b64,
});

const signedSchema = z.object({
  from: z.string().min(1).max(64),
  to: z.string().min(1).max(64).nullable(),
  seq: z.number().int().positive(),
  body: z.unknown(),
  sig: b64,
});

export const envelopeSchema = z.discriminatedUnion('k', [
  /** "I am here, with these keys": tagged under the room secret; `reply` asks for no answer. */
  z.object({ k: z.literal('hello'), announcement: announcementSchema, reply: z.boolean() }),
  /** A newcomer without the secret asks for it, encrypted to this one-time key. */
  z.object({ k: z.literal('handoff-request'), key: b64 }),
  /** A holder's answer: the secret and epoch, sealed to the newcomer's key. */
  z.object({ k: z.literal('handoff'), holderKey: b64, box: b64 }),
  /** Everything else (descriptions, candidates), signed by the sender's meeting key. */
  z.object({ k: z.literal('signed'), signal: signedSchema }),
]);
export type Envelope = z.infer<typeof envelopeSchema>;

export function parseEnvelope(text: string): Envelope | null {
  try {
    const parsed = envelopeSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The body of a signed signal: one WebRTC description or one ICE candidate (null = the end). */
const bodySchema = z.union([
  z.object({
    description: z.object({ type: z.enum(['offer', 'answer', 'pranswer', 'rollback']), sdp: z.string().max(MAX_SIGNAL_BYTES).optional() }),
  }),
  z.object({
    candidate: z
      .object({
        candidate: z.string().max(2048),
        sdpMid: z.string().max(64).nullable().optional(),
        sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
        usernameFragment: z.string().max(256).nullable().optional(),
      })
      .nullable(),
  }),
]);
export type SignalBody = z.infer<typeof bodySchema>;

export function parseSignalBody(body: unknown): SignalBody | null {
  const parsed = bodySchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}
