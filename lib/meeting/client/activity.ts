// What the monitors' readings change (monitors.ts reads them, machine.ts applies this): the
// active-speaker highlight and each link's quality. Pure; null means nothing changed.
import type { RemotePeer } from './meeting-state';
import type { Quality } from './stats';

/** Below this the room is quiet: nobody is highlighted. */
const SPEAKING_LEVEL = 0.02;
/** The highlight moves only after this hold, so it does not flicker between two voices. */
export const SPEAKER_HOLD_MS = 1200;

/** The loudest unmuted peer is highlighted, once the hold since the last move is over. */
export function speakerStep(
  view: { peers: RemotePeer[]; activeSpeaker: string | null },
  changedAt: number,
  levels: Record<string, number>,
  now: number,
): { peers: RemotePeer[]; activeSpeaker: string | null; speakerChangedAt: number } | null {
  let loudest: string | null = null;
  let loudestLevel = SPEAKING_LEVEL;
  let changed = false;
  const peers = view.peers.map((peer) => {
    const level = levels[peer.id] ?? 0;
    if (!peer.media.muted && level > loudestLevel) {
      loudest = peer.id;
      loudestLevel = level;
    }
    if (Math.abs(level - peer.level) < SPEAKING_LEVEL) return peer;
    changed = true;
    return { ...peer, level };
  });
  const current = view.activeSpeaker;
  const speaker = loudest && loudest !== current && now - changedAt > SPEAKER_HOLD_MS ? loudest : current;
  if (!changed && speaker === current) return null;
  return { peers, activeSpeaker: speaker, speakerChangedAt: speaker !== current ? now : changedAt };
}

/** Each peer's quality from the last stats, a new object only for those that changed. */
export function withQuality(peers: RemotePeer[], quality: Record<string, Quality>): RemotePeer[] | null {
  const next = peers.map((peer) => {
    const value = quality[peer.id];
    return value && value !== peer.quality ? { ...peer, quality: value } : peer;
  });
  return next.some((peer, index) => peer !== peers[index]) ? next : null;
}
