// What the monitors' readings change (monitors.ts reads them, machine.ts applies this): the
// active-speaker highlight and each link's quality. Pure; null means nothing changed.
import type { RemotePeer } from './meeting-state';
import type { Quality } from '../links/stats';

/** Below this the room is quiet: nobody is highlighted. */
const SPEAKING_LEVEL = 0.02;
/** The highlight moves only after this hold, so it does not flicker between two voices. */
export const SPEAKER_HOLD_MS = 1200;

/**
 * The loudest unmuted peer is highlighted, once the hold since the last move is over; null when
 * the highlight stays. Levels themselves are not kept in the view: nothing shows them, and a
 * new view four times a second re-rendered the whole call for nothing.
 */
export function speakerStep(
  view: { peers: RemotePeer[]; activeSpeaker: string | null },
  changedAt: number,
  levels: Record<string, number>,
  now: number,
): { activeSpeaker: string | null; speakerChangedAt: number } | null {
  let loudest: string | null = null;
  let loudestLevel = SPEAKING_LEVEL;
  for (const peer of view.peers) {
    const level = levels[peer.id] ?? 0;
    if (!peer.media.muted && level > loudestLevel) {
      loudest = peer.id;
      loudestLevel = level;
    }
  }
  const current = view.activeSpeaker;
  if (!loudest || loudest === current || now - changedAt <= SPEAKER_HOLD_MS) return null;
  return { activeSpeaker: loudest, speakerChangedAt: now };
}

/** Each peer's quality from the last stats, a new object only for those that changed. */
export function withQuality(peers: RemotePeer[], quality: Record<string, Quality>): RemotePeer[] | null {
  const next = peers.map((peer) => {
    const value = quality[peer.id];
    return value && value !== peer.quality ? { ...peer, quality: value } : peer;
  });
  return next.some((peer, index) => peer !== peers[index]) ? next : null;
}
