import 'server-only';

/**
 * Which Janus node holds a meeting's room. A meeting is placed once, on the node with the fewest
 * rooms, and stays there while tickets for it keep being issued (each refreshes the placement);
 * one left alone for PLACEMENT_TTL_MS is forgotten, so a placement lost by a crash heals itself.
 */
export interface PlacementStore {
  /**
   * The meeting's node, refreshed. A meeting without one, or whose node left `nodes`, goes to the
   * node of `nodes` with the fewest live placements (the first of them on a tie). Atomic.
   */
  place(meetingId: string, nodes: readonly string[], now?: number): Promise<{ node: string; placed: boolean }>;
  /** The meeting's node, or null. */
  get(meetingId: string, now?: number): Promise<string | null>;
  /**
   * Forgets the meeting's placement; its node, or null if it had none. With `onlyFrom`, only a
   * placement on that node (atomic): a ticket request that found the node dead must not release
   * the healthy node another participant's request has placed the meeting on meanwhile.
   */
  release(meetingId: string, onlyFrom?: string): Promise<string | null>;
  /** How many live placements each node holds (for tests and /metrics). */
  load(nodes: readonly string[], now?: number): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** Tickets last 10 minutes and each refreshes the placement: a day covers any meeting in use. */
export const PLACEMENT_TTL_MS = 24 * 3600 * 1000;

/** The node with the fewest placements; the first listed on a tie. */
export function leastLoaded(nodes: readonly string[], load: Record<string, number>): string {
  if (nodes.length === 0) throw new Error('no SFU node to place a room on');
  return nodes.reduce((best, node) => ((load[node] ?? 0) < (load[best] ?? 0) ? node : best));
}

/** Placements in this process's memory: for a single app instance (no REDIS_URL). */
export class MemoryPlacementStore implements PlacementStore {
  private readonly placements = new Map<string, { node: string; expiresAt: number }>();

  async place(meetingId: string, nodes: readonly string[], now = Date.now()) {
    const current = await this.get(meetingId, now);
    const placed = current === null || !nodes.includes(current);
    const node = placed ? leastLoaded(nodes, await this.load(nodes, now)) : current;
    this.placements.set(meetingId, { node, expiresAt: now + PLACEMENT_TTL_MS });
    return { node, placed };
  }

  async get(meetingId: string, now = Date.now()) {
    const placement = this.placements.get(meetingId);
    if (placement && placement.expiresAt <= now) this.placements.delete(meetingId);
    return placement && placement.expiresAt > now ? placement.node : null;
  }

  async release(meetingId: string, onlyFrom?: string) {
    const node = this.placements.get(meetingId)?.node ?? null;
    if (onlyFrom !== undefined && node !== onlyFrom) return null;
    this.placements.delete(meetingId);
    return node;
  }

  async load(nodes: readonly string[], now = Date.now()) {
    const load: Record<string, number> = Object.fromEntries(nodes.map((node) => [node, 0]));
    for (const [meetingId, placement] of this.placements) {
      if (placement.expiresAt <= now) this.placements.delete(meetingId);
      else if (placement.node in load) load[placement.node] = (load[placement.node] ?? 0) + 1;
    }
    return load;
  }

  async close() {}
}
