// Safety codes: both participants hash both sides' signing keys and DTLS fingerprints. Equal codes
// on both screens mean nobody substituted a key or certificate in between.
import { compareBytes, concatBytes, field, subtle, utf8, type Bytes } from './bytes';
import { normalizeFingerprint } from './signing';

/**
 * 64 pictures, distinct at small sizes and easy to name aloud (modelled on the Matrix SAS list).
 * The order is part of the format: changing it changes every code.
 */
// prettier-ignore
export const EMOJI_TABLE: ReadonlyArray<readonly [emoji: string, name: string]> = [
  ['🐶', 'dog'], ['🐱', 'cat'], ['🦁', 'lion'], ['🐎', 'horse'], ['🦄', 'unicorn'], ['🐷', 'pig'], ['🐘', 'elephant'], ['🐰', 'rabbit'],
  ['🐼', 'panda'], ['🐓', 'rooster'], ['🐧', 'penguin'], ['🐢', 'turtle'], ['🐟', 'fish'], ['🐙', 'octopus'], ['🦋', 'butterfly'], ['🌷', 'flower'],
  ['🌳', 'tree'], ['🌵', 'cactus'], ['🍄', 'mushroom'], ['🌏', 'globe'], ['🌙', 'moon'], ['☁️', 'cloud'], ['🔥', 'fire'], ['🍌', 'banana'],
  ['🍎', 'apple'], ['🍓', 'strawberry'], ['🌽', 'corn'], ['🍕', 'pizza'], ['🎂', 'cake'], ['❤️', 'heart'], ['😀', 'smiley'], ['🤖', 'robot'],
  ['🎩', 'hat'], ['👓', 'glasses'], ['🔧', 'spanner'], ['🎅', 'santa'], ['👍', 'thumbs up'], ['☂️', 'umbrella'], ['⌛', 'hourglass'], ['⏰', 'clock'],
  ['🎁', 'gift'], ['💡', 'light bulb'], ['📕', 'book'], ['✏️', 'pencil'], ['📎', 'paperclip'], ['✂️', 'scissors'], ['🔒', 'lock'], ['🔑', 'key'],
  ['🔨', 'hammer'], ['☎️', 'telephone'], ['🏁', 'flag'], ['🚂', 'train'], ['🚲', 'bicycle'], ['✈️', 'aeroplane'], ['🚀', 'rocket'], ['🏆', 'trophy'],
  ['⚽', 'ball'], ['🎸', 'guitar'], ['🎺', 'trumpet'], ['🔔', 'bell'], ['⚓', 'anchor'], ['🎧', 'headphones'], ['📁', 'folder'], ['📌', 'pin'],
];

/** `groups` groups of 5 digits, each from 5 bytes (40 bits) mod 10^5: bias below 10^-7. */
export function renderDigits(bytes: Uint8Array, groups: number): string {
  const out: string[] = [];
  for (let g = 0; g < groups; g += 1) {
    let value = 0;
    for (let i = 0; i < 5; i += 1) value = value * 256 + bytes[g * 5 + i]!;
    out.push(String(value % 100000).padStart(5, '0'));
  }
  return out.join(' ');
}

/** `count` emoji, 6 bits each, read big-endian from `bytes`. */
export function renderEmoji(bytes: Uint8Array, count: number): Array<readonly [emoji: string, name: string]> {
  const out: Array<readonly [string, string]> = [];
  for (let n = 0; n < count; n += 1) {
    const bit = n * 6;
    const pair = (bytes[bit >> 3]! << 8) | (bytes[(bit >> 3) + 1] ?? 0);
    out.push(EMOJI_TABLE[(pair >> (10 - (bit & 7))) & 63]!);
  }
  return out;
}

export interface SafetySide {
  /** Raw 65-byte ECDSA P-256 public key. */
  signingKey: Bytes;
  /** DTLS fingerprint as announced, e.g. "sha-256 AB:CD:…". */
  fingerprint: string;
}

export interface SafetyCode {
  /** 6 groups of 5 digits (~100 bits). */
  digits: string;
  /** 8 emoji (48 bits), with names for screen readers. */
  emoji: Array<readonly [emoji: string, name: string]>;
}

const CONTEXT = 'enclave safety code v1';
export const DIGIT_GROUPS = 6;
export const EMOJI_COUNT = 8;

function sideBytes(side: SafetySide): Bytes {
  return concatBytes(field(side.signingKey), field(normalizeFingerprint(side.fingerprint) ?? side.fingerprint));
}

/** SHA-512 over both sides in byte order, so each participant computes the same code. */
export async function safetyCode(a: SafetySide, b: SafetySide): Promise<SafetyCode> {
  const [first, second] = [sideBytes(a), sideBytes(b)].sort(compareBytes) as [Bytes, Bytes];
  const digest = new Uint8Array(await subtle().digest('SHA-512', concatBytes(utf8(CONTEXT), field(first), field(second))));
  return {
    digits: renderDigits(digest, DIGIT_GROUPS),
    emoji: renderEmoji(digest.subarray(30), EMOJI_COUNT),
  };
}
