import 'server-only';
import type { ServerEvent } from '@/lib/meeting/protocol';
import { countLive, eventsAfter, isStale, KEPT_EVENTS, type EventListener, type Hub, type NumberedEvent, type RosterEntry, type TouchResult } from './hub';

/** The default hub: everything in this process. Operations are synchronous, hence atomic. */
export class MemoryHub implements Hub {
  private readonly rosters = new Map<string, Map<string, RosterEntry>>();
  private readonly banned = new Map<string, Set<string>>();
  private readonly locked = new Set<string>();
  private readonly listeners = new Map<string, Set<EventListener>>();
  /** Per participant: the last id given and the kept events. */
  private readonly events = new Map<string, { last: number; kept: NumberedEvent[] }>();

  private roster(meetingId: string) {
    let roster = this.rosters.get(meetingId);
    if (!roster) this.rosters.set(meetingId, (roster = new Map()));
    return roster;
  }

  async reserve(meetingId: string, entry: RosterEntry, limit: number) {
    const roster = this.roster(meetingId);
    const live = [...roster.values()].filter((candidate) => !isStale(candidate)).length;
    if (live >= limit) return false;
    roster.set(entry.id, entry);
    return true;
  }

  async get(meetingId: string, participantId: string) {
    return this.rosters.get(meetingId)?.get(participantId) ?? null;
  }

  async list(meetingId: string) {
    return [...(this.rosters.get(meetingId)?.values() ?? [])];
  }

  async put(meetingId: string, entry: RosterEntry) {
    this.roster(meetingId).set(entry.id, entry);
  }

  async remove(meetingId: string, participantId: string, heldBy?: string) {
    const roster = this.rosters.get(meetingId);
    if (heldBy !== undefined && roster?.get(participantId)?.instance !== heldBy) return false;
    const removed = roster?.delete(participantId) ?? false;
    if (removed) this.events.delete(`${meetingId}/${participantId}`);
    // An empty meeting forgets its state, as a Redis key would expire.
    if (roster && roster.size === 0) {
      this.rosters.delete(meetingId);
      this.locked.delete(meetingId);
    }
    return removed;
  }

  async touch(meetingId: string, participantId: string, instance: string, now = Date.now()): Promise<TouchResult> {
    const entry = this.rosters.get(meetingId)?.get(participantId);
    if (!entry) return 'gone';
    if (entry.instance !== instance) return 'moved';
    entry.seen = now;
    return 'held';
  }

  async ban(meetingId: string, participantId: string) {
    let set = this.banned.get(meetingId);
    if (!set) this.banned.set(meetingId, (set = new Set()));
    set.add(participantId);
  }

  async isBanned(meetingId: string, participantId: string) {
    return this.banned.get(meetingId)?.has(participantId) ?? false;
  }

  async isLocked(meetingId: string) {
    return this.locked.has(meetingId);
  }

  async setLocked(meetingId: string, locked: boolean) {
    if (locked) this.locked.add(meetingId);
    else this.locked.delete(meetingId);
  }

  async publish(meetingId: string, participantId: string, event: ServerEvent) {
    const key = `${meetingId}/${participantId}`;
    let events = this.events.get(key);
    if (!events) this.events.set(key, (events = { last: 0, kept: [] }));
    const id = ++events.last;
    events.kept.push({ id, event });
    if (events.kept.length > KEPT_EVENTS) events.kept.shift();
    for (const listener of this.listeners.get(key) ?? []) listener(event, id);
  }

  async recent(meetingId: string, participantId: string, after: number) {
    const events = this.events.get(`${meetingId}/${participantId}`) ?? { last: 0, kept: [] };
    return eventsAfter(events.kept, events.last, after);
  }

  async subscribe(meetingId: string, participantId: string, listener: EventListener) {
    const key = `${meetingId}/${participantId}`;
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return async () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  async census() {
    return countLive([...this.rosters.values()].map((roster) => roster.values()));
  }

  async close() {
    this.listeners.clear();
    this.events.clear();
  }
}
