// What two participants say about a file, over their sealed chat channel (peer.ts): an offer,
// the receiver's answer, a cancel from either side, the receiver's verdict. The bytes go on a
// data channel of their own (transfers.ts). Each message is checked here: a peer is not trusted
// to send well-formed data, nor to respect the size limit.

/** A file's display name is cut to this many characters. */
export const FILE_NAME_MAX = 200;

export type FileMessage =
  | { t: 'file-offer'; id: string; name: string; size: number; mime: string; sha256: string; key: string }
  | { t: 'file-accept'; id: string }
  /** `too-large`: above the receiver's limit; `declined`: the person said no. */
  | { t: 'file-decline'; id: string; reason: 'declined' | 'too-large' }
  /** `stalled`: nothing moved for STALL_MS (stall-watch.ts), so the side that noticed ended it. */
  | { t: 'file-cancel'; id: string; reason?: 'stalled' }
  /** From the receiver once every byte arrived: whether the SHA-256 matched the offer's. */
  | { t: 'file-received'; id: string; ok: boolean };

const ID = /^[A-Za-z0-9-]{1,64}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const KEY = /^[A-Za-z0-9_-]{43}$/;
const MIME = /^[\w.+-]+\/[\w.+-]+$/;

/** What a name keeps when nothing of it is left to show. */
export const FALLBACK_FILE_NAME = 'file';

/**
 * Taken out of every name: control characters (Cc), format characters (Cf: the bidi overrides
 * and isolates that make `invoice\u202Efdp.exe` read as "invoiceexe.pdf", zero-width ones),
 * lone surrogates (Cs), and line and paragraph separators (Zl, Zp).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/**
 * A name that is only a name, as shown and as saved: no folders, nothing invisible or that
 * reorders what is shown, at most FILE_NAME_MAX characters (never half a character), never empty.
 * Both sides apply it; the receiver's is the one that counts, since the sender is not trusted.
 */
export function safeFileName(name: string): string {
  const cleaned = name.replace(INVISIBLE, '').split(/[\\/]/).pop()!.trim();
  const base = Array.from(cleaned).slice(0, FILE_NAME_MAX).join('').trim();
  return base && !/^\.+$/.test(base) ? base : FALLBACK_FILE_NAME;
}

/** The message, checked, or null. Sizes are not compared with the limit here: that is the receiver's decision. */
export function parseFileMessage(raw: unknown): FileMessage | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Record<string, unknown>;
  if (typeof m.id !== 'string' || !ID.test(m.id)) return null;
  const id = m.id;
  switch (m.t) {
    case 'file-offer':
      if (typeof m.name !== 'string' || typeof m.size !== 'number' || !Number.isSafeInteger(m.size) || m.size < 1) return null;
      if (typeof m.sha256 !== 'string' || !SHA256.test(m.sha256) || typeof m.key !== 'string' || !KEY.test(m.key)) return null;
      return {
        t: 'file-offer',
        id,
        name: safeFileName(m.name),
        size: m.size,
        // Told, never trusted: a received file is saved as plain bytes whatever it says (transfers.ts save()).
        mime: typeof m.mime === 'string' && m.mime.length <= 100 && MIME.test(m.mime) ? m.mime : 'application/octet-stream',
        sha256: m.sha256,
        key: m.key,
      };
    case 'file-accept':
      return { t: m.t, id };
    case 'file-cancel':
      return m.reason === 'stalled' ? { t: 'file-cancel', id, reason: 'stalled' } : { t: 'file-cancel', id };
    case 'file-decline':
      return { t: 'file-decline', id, reason: m.reason === 'too-large' ? 'too-large' : 'declined' };
    case 'file-received':
      return typeof m.ok === 'boolean' ? { t: 'file-received', id, ok: m.ok } : null;
    default:
      return null;
  }
}
