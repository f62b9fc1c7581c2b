import 'server-only';
import type { ServerEvent } from '@/lib/meeting/protocol';

/** A participant as the roster keeps them. */
export interface RosterEntry {
  id: string;
  name: string;
  isHost: boolean;
  /** joining: a seat reserved by POST /join, its stream not yet open. */
  state: 'joining' | 'waiting' | 'admitted';
  /** When the instance holding their stream last vouched for them (ms). */
  seen: number;
  /** The app instance holding their stream (see instanceId()); null until a stream opens. */
  instance: string | null;
  joinedAt: number;
  /** The handoff key POST /join brought (protocol.schema.ts keyRequestSchema), for the `join` event. */
  keyRequest?: string;
  /** The room made guests ask to join when POST /join looked it up: the stream need not look again. */
  roomAsksToJoin?: boolean;
}

/** An event as the hub numbered it: ids rise by one per participant, whichever instance published. */
export interface NumberedEvent {
  id: number;
  event: ServerEvent;
}
export type EventListener = (event: ServerEvent, id: number) => void;

/**
 * How many of a participant's events the hub keeps, so that a stream that reconnects, to this
 * instance or another, is sent what it missed (Last-Event-ID) instead of a fresh welcome.
 */
export const KEPT_EVENTS = 200;

/** The events after `after` among `kept` (ids consecutive, oldest first, the newest being `last`); null if some are gone. */
export function eventsAfter(kept: NumberedEvent[], last: number, after: number): NumberedEvent[] | null {
  const oldest = kept[0]?.id ?? last + 1;
  if (after > last || after < oldest - 1) return null;
  return kept.filter(({ id }) => id > after);
}

/** A reserved seat expires if its stream never opens; a held one if its instance stops refreshing it. */
export const JOINING_TTL_MS = 30_000;
export const SEEN_TTL_MS = 15_000;
/** How often the holding instance refreshes `seen`: three chances before SEEN_TTL_MS runs out. */
export const REFRESH_MS = 5_000;

/** What touch() found: refreshed, held by another instance now, or no longer in the roster. */
export type TouchResult = 'held' | 'moved' | 'gone';

export function isStale(entry: RosterEntry, now = Date.now()): boolean {
  return now - entry.seen > (entry.state === 'joining' ? JOINING_TTL_MS : SEEN_TTL_MS);
}

/**
 * Where a meeting's roster lives and how events reach participants: one implementation in
 * process memory, one over Redis so that several app instances serve the same meeting.
 */
export interface Hub {
  /** Adds the entry unless the meeting already has `limit` live participants. Atomic. */
  reserve(meetingId: string, entry: RosterEntry, limit: number): Promise<boolean>;
  get(meetingId: string, participantId: string): Promise<RosterEntry | null>;
  /** Every entry, stale ones included (the caller prunes them). */
  list(meetingId: string): Promise<RosterEntry[]>;
  put(meetingId: string, entry: RosterEntry): Promise<void>;
  /**
   * Removes the entry; true if it was there (so exactly one caller announces a leave). With
   * `heldBy`, only if that instance still holds it: a stream that moved elsewhere stays.
   */
  remove(meetingId: string, participantId: string, heldBy?: string): Promise<boolean>;
  /** Refreshes `seen` if `instance` holds the entry. Atomic, so it never resurrects a removed one. */
  touch(meetingId: string, participantId: string, instance: string, now?: number): Promise<TouchResult>;
  ban(meetingId: string, participantId: string): Promise<void>;
  isBanned(meetingId: string, participantId: string): Promise<boolean>;
  isLocked(meetingId: string): Promise<boolean>;
  setLocked(meetingId: string, locked: boolean): Promise<void>;
  /** Gives the event the participant's next id, keeps it among their recent ones, and delivers it to their subscribers. */
  publish(meetingId: string, participantId: string, event: ServerEvent): Promise<void>;
  subscribe(meetingId: string, participantId: string, listener: EventListener): Promise<() => Promise<void>>;
  /**
   * The participant's kept events after id `after`, oldest first; null when some of them are no
   * longer kept (or `after` is no id this hub gave), so that a replay from here would miss some.
   */
  recent(meetingId: string, participantId: string, after: number): Promise<NumberedEvent[] | null>;
  /** How many meetings and live participants the hub holds now (for /metrics). */
  census(): Promise<Census>;
  close(): Promise<void>;
}

export interface Census {
  /** Meetings with at least one live participant. */
  meetings: number;
  participants: Record<RosterEntry['state'], number>;
}

/** Counts the live entries of each roster given. */
export function countLive(rosters: Iterable<Iterable<RosterEntry>>, now = Date.now()): Census {
  const census: Census = { meetings: 0, participants: { admitted: 0, waiting: 0, joining: 0 } };
  for (const roster of rosters) {
    let live = 0;
    for (const entry of roster) {
      if (isStale(entry, now)) continue;
      census.participants[entry.state] += 1;
      live += 1;
    }
    if (live > 0) census.meetings += 1;
  }
  return census;
}
