// What a participant's captions look like on the wire, over each pair's sealed main channel
// (links/peer.ts; docs/e2ee-crypto.md "Caption messages"): the line being spoken or its final
// words, numbered per speaker, in the speaker's language; and "off" when they stop captioning.
// Every message is checked here: a peer is not trusted to send well-formed data or to respect the limits.

/** Characters of one line: a long final is cut by the sender (captions.ts), a longer one is refused. */
export const TEXT_MAX = 500;
/** A BCP 47 tag as browsers give them ("en", "de-DE", "zh-Hant-TW"). */
const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/;

export type CaptionMessage =
  /** Line `n` of the sender's captions: its words so far, or (final) all of them. */
  | { t: 'caption-line'; n: number; final: boolean; lang: string; text: string }
  /** The sender stopped captioning its microphone. */
  | { t: 'caption-off' };

/** Control and format characters (bidi overrides, zero-width ones), lone surrogates, line breaks go; spaces collapse. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/** The text as shown: visible characters, trimmed, at most TEXT_MAX; "" when nothing is left or it is too long. */
export function cleanCaption(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > TEXT_MAX * 4) return '';
  const text = raw.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  return Array.from(text).length <= TEXT_MAX ? text : '';
}

/** Our own line, cut to the limit at a character boundary (a recogniser may give a long final). */
export function fitCaption(raw: string): string {
  const text = raw.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  const characters = Array.from(text);
  return characters.length <= TEXT_MAX ? text : characters.slice(-TEXT_MAX).join('');
}

export const isLanguage = (raw: unknown): raw is string => typeof raw === 'string' && raw.length <= 35 && LANGUAGE.test(raw);

/** The message, checked, or null. */
export function parseCaptionMessage(raw: unknown): CaptionMessage | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Record<string, unknown>;
  if (m.t === 'caption-off') return { t: 'caption-off' };
  if (m.t !== 'caption-line') return null;
  const text = cleanCaption(m.text);
  if (!text || typeof m.final !== 'boolean' || !isLanguage(m.lang)) return null;
  if (typeof m.n !== 'number' || !Number.isSafeInteger(m.n) || m.n < 0) return null;
  return { t: 'caption-line', n: m.n, final: m.final, lang: m.lang, text };
}
