// What the connections are doing, read on a timer: who speaks (audio levels, 4 times a second)
// and how good each link is (getStats(), every 2 s). They only read; the machine decides.
import type { PeerLink } from './peer';
import { readLinkStats, type LinkStats, type Quality } from './stats';

const SPEAKER_POLL_MS = 250;
const STATS_POLL_MS = 2000;
/** A synchronization source older than this is silence, not the last word said. */
const LEVEL_FRESH_MS = 1000;

export type LinkReport = LinkStats & { connection: RTCPeerConnectionState };

/** Per-peer counters from getStats(), for the quality indicator, tests and the benchmark. */
export async function linkStats(links: ReadonlyMap<string, PeerLink>): Promise<Record<string, LinkReport>> {
  const entries = await Promise.all(
    [...links.entries()].map(async ([id, link]) => {
      const stats = await readLinkStats(link.pc, link.receiver('screen'));
      return [id, { ...stats, connection: link.pc.connectionState }] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/**
 * How loud each peer is now, 0..1, from its audio receiver: the SFU's for a peer heard through it
 * (`viaSfu`), the link's otherwise. A peer heard through the SFU may have no link at all: above
 * route-pin.ts LINKS_UP_TO a call keeps none, and its speakers were never highlighted.
 */
export function audioLevels(links: ReadonlyMap<string, Pick<PeerLink, 'receiver'>>, viaSfu?: ReadonlyMap<string, RTCRtpReceiver>): Record<string, number> {
  const now = performance.timeOrigin + performance.now();
  const levels: Record<string, number> = {};
  for (const id of new Set([...links.keys(), ...(viaSfu?.keys() ?? [])])) {
    const source = (viaSfu?.get(id) ?? links.get(id)?.receiver('audio'))?.getSynchronizationSources?.()[0];
    levels[id] = source && now - source.timestamp < LEVEL_FRESH_MS ? (source.audioLevel ?? 0) : 0;
  }
  return levels;
}

/** Starts both polls; the answer stops them. */
export function startMonitors(options: {
  links: ReadonlyMap<string, PeerLink>;
  /** Audio receivers of peers heard through the SFU, by participant. */
  sfuAudio?: () => ReadonlyMap<string, RTCRtpReceiver> | undefined;
  onLevels: (levels: Record<string, number>) => void;
  onQuality: (quality: Record<string, Quality>) => void;
}): () => void {
  const speakers = setInterval(() => options.onLevels(audioLevels(options.links, options.sfuAudio?.())), SPEAKER_POLL_MS);
  const quality = setInterval(async () => {
    if (!options.links.size) return;
    const stats = await linkStats(options.links).catch(() => ({}) as Record<string, LinkReport>);
    options.onQuality(Object.fromEntries(Object.entries(stats).map(([id, report]) => [id, report.quality])));
  }, STATS_POLL_MS);
  return () => {
    clearInterval(speakers);
    clearInterval(quality);
  };
}
