// The captions one page holds (docs/meetings.md "Captions"): each speaker's current line, shown
// under their tile, and the final lines kept for the transcript. Pure: no channels, no timers —
// captions.ts feeds it what the sealed channels deliver, with the sender the call verified (the
// pair's channel, never a field of the message), and the time.
import type { CaptionMessage } from './caption-messages';

/** Lines a transcript keeps: the oldest go first (some hours of a busy call). */
export const TRANSCRIPT_MAX = 5000;
/** A speaker's messages: a burst of this many, then this many a second (a sender sends at most ~4 partials a second). */
export const RATE_BURST = 20;
export const RATE_PER_SECOND = 8;

export interface LiveLine {
  n: number;
  text: string;
  lang: string;
  final: boolean;
}

export interface TranscriptLine {
  speaker: string;
  /** The speaker's name when the line came; null for our own lines. */
  name: string | null;
  lang: string;
  text: string;
  /** ms since the epoch: the line's first words, and its end. */
  start: number;
  end: number;
}

export type Verdict = 'ok' | 'stale' | 'rate';

export class CaptionBook {
  readonly live = new Map<string, LiveLine>();
  readonly transcript: TranscriptLine[] = [];
  /** Per speaker: the newest final line number, and when its current line began. */
  private readonly finals = new Map<string, number>();
  private readonly begun = new Map<string, { n: number; at: number }>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(readonly selfId: string) {}

  /** A message from `from` (the verified sender, or ourselves), already parsed (caption-messages.ts). */
  apply(from: string, name: string | null, message: CaptionMessage, now: number): Verdict {
    if (from !== this.selfId && !this.allow(from, now)) return 'rate';
    if (message.t === 'caption-off') {
      this.live.delete(from);
      return 'ok';
    }
    const { n, final, lang, text } = message;
    // Each line is numbered above the last final one: a line that ended does not come back.
    if (n <= (this.finals.get(from) ?? -1)) return 'stale';
    const begun = this.begun.get(from);
    if (!begun || begun.n !== n) this.begun.set(from, { n, at: now });
    this.live.set(from, { n, text, lang, final });
    if (final) {
      this.finals.set(from, n);
      this.transcript.push({ speaker: from, name, lang, text, start: this.begun.get(from)!.at, end: now });
      if (this.transcript.length > TRANSCRIPT_MAX) this.transcript.splice(0, this.transcript.length - TRANSCRIPT_MAX);
    }
    return 'ok';
  }

  /** A final line's time on screen is over (unless a newer line replaced it). */
  expire(speaker: string, n: number): boolean {
    const line = this.live.get(speaker);
    if (!line || line.n !== n || !line.final) return false;
    this.live.delete(speaker);
    return true;
  }

  peerGone(peerId: string): boolean {
    this.buckets.delete(peerId);
    return this.live.delete(peerId);
  }

  private allow(from: string, now: number): boolean {
    const bucket = this.buckets.get(from) ?? { tokens: RATE_BURST, at: now };
    bucket.tokens = Math.min(RATE_BURST, bucket.tokens + ((now - bucket.at) / 1000) * RATE_PER_SECOND);
    bucket.at = now;
    this.buckets.set(from, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
