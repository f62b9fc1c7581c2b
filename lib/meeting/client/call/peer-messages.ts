// Messages between participants over the data channel. They never pass the server; each
// is checked here because a peer is not trusted to send well-formed data.

export interface MediaState {
  muted: boolean;
  cameraOff: boolean;
  sharing: boolean;
  hand: boolean;
  recording: boolean;
}

export const REACTIONS = ['👍', '👏', '😂', '❤️', '🎉', '😮'] as const;

export type PeerMessage =
  | ({ t: 'state' } & MediaState)
  | { t: 'chat'; id: string; text: string; at: number }
  | { t: 'reaction'; emoji: string }
  | { t: 'view'; visible: boolean }
  /** From the host after a removal: the next room secret (base64url) and its epoch (docs/e2ee-crypto.md "Kick"). */
  | { t: 'rekey'; epoch: number; secret: string };

const MAX_CHAT = 2000;

export function parsePeerMessage(raw: unknown): PeerMessage | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Record<string, unknown>;
  switch (m.t) {
    case 'state': {
      const keys = ['muted', 'cameraOff', 'sharing', 'hand', 'recording'] as const;
      if (!keys.every((key) => typeof m[key] === 'boolean')) return null;
      return {
        t: 'state',
        muted: m.muted as boolean,
        cameraOff: m.cameraOff as boolean,
        sharing: m.sharing as boolean,
        hand: m.hand as boolean,
        recording: m.recording as boolean,
      };
    }
    case 'chat':
      if (typeof m.id !== 'string' || m.id.length > 64) return null;
      if (typeof m.text !== 'string' || !m.text.trim() || m.text.length > MAX_CHAT) return null;
      return { t: 'chat', id: m.id, text: m.text, at: typeof m.at === 'number' && Number.isFinite(m.at) ? m.at : Date.now() };
    case 'reaction':
      return typeof m.emoji === 'string' && (REACTIONS as readonly string[]).includes(m.emoji) ? { t: 'reaction', emoji: m.emoji } : null;
    case 'view':
      return typeof m.visible === 'boolean' ? { t: 'view', visible: m.visible } : null;
    case 'rekey':
      if (typeof m.epoch !== 'number' || !Number.isInteger(m.epoch) || m.epoch < 1 || m.epoch > 0xffff) return null;
      return typeof m.secret === 'string' && /^[A-Za-z0-9_-]{43}$/.test(m.secret) ? { t: 'rekey', epoch: m.epoch, secret: m.secret } : null;
    default:
      return null;
  }
}
