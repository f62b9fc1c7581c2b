// When our sender key is replaced by a fresh one through the SFU (docs/e2ee-crypto.md "Rotation"),
// without timers, crypto or the network: a leave (or new breakout rooms) asks for one, bursts of
// them make one, and a quiet call still gets one every interval. A join needs none: the sender
// ratchets at once (sender-key-ring.ts). sender-key-ring.ts runs these decisions with timers;
// tests/unit/meeting-key-schedule.test.ts checks them as a table.

export interface ScheduleSettings {
  /** Leaves closer together than this make one rotation (a trailing quiet time). */
  debounceMs: number;
  /** A burst never holds its rotation back longer than this after its first change. */
  maxDelayMs: number;
  /** The key in use is replaced at least this often, even when nobody joins or leaves. */
  intervalMs: number;
  /** A receiver keeps a sender's previous generation this long after the next arrives (frames in flight), then drops it. */
  graceMs: number;
}

export const DEFAULT_SCHEDULE: ScheduleSettings = { debounceMs: 300, maxDelayMs: 1000, intervalMs: 5 * 60_000, graceMs: 5000 };

/**
 * The address's `?keyEvery=S` (tests and benches, like `?media=`): a rotation every S seconds, 3 to
 * 299, instead of every 5 minutes. It can only make keys change more often, never less.
 */
export function scheduleOf(search: string): Partial<ScheduleSettings> | undefined {
  const seconds = Number(new URLSearchParams(search).get('keyEvery'));
  return Number.isInteger(seconds) && seconds >= 3 && seconds * 1000 < DEFAULT_SCHEDULE.intervalMs ? { intervalMs: seconds * 1000 } : undefined;
}

export interface ScheduleState {
  /** When our newest key was made; null before our first. */
  readonly madeAt: number | null;
  /** The first change since then that no rotation covers yet. */
  readonly pendingSince: number | null;
  /** The last such change. */
  readonly lastChange: number | null;
}

export const INITIAL_SCHEDULE: ScheduleState = { madeAt: null, pendingSince: null, lastChange: null };

export type ScheduleEvent =
  /** Our first key, given to everyone here. */
  | { type: 'started'; at: number }
  /** Someone left (or the breakout rooms changed, or our ratchets reached their end): the key in use must stop reaching them. */
  | { type: 'changed'; at: number }
  /** A new key was made (and handed to those here). */
  | { type: 'rotated'; at: number };

export function stepSchedule(state: ScheduleState, event: ScheduleEvent): ScheduleState {
  switch (event.type) {
    case 'started':
    case 'rotated':
      return { madeAt: event.at, pendingSince: null, lastChange: null };
    case 'changed':
      // Before our first key there is nothing to replace: that key is made after the change.
      if (state.madeAt === null) return state;
      return { ...state, pendingSince: state.pendingSince ?? event.at, lastChange: event.at };
  }
}

/** When the next rotation is due, or null before our first key. */
export function rotationDueAt(state: ScheduleState, settings: ScheduleSettings): number | null {
  if (state.madeAt === null) return null;
  const periodic = state.madeAt + settings.intervalMs;
  if (state.pendingSince === null || state.lastChange === null) return periodic;
  return Math.min(periodic, state.lastChange + settings.debounceMs, state.pendingSince + settings.maxDelayMs);
}

/**
 * Whether a peer may be handed the key of `generation`: only keys made after it was admitted
 * (`admittedAt` is the generation we would make next at that moment), so it never opens what
 * was sent before it came (backward secrecy). Keys count up and are made once, so this is an
 * order, not a clock.
 */
export function mayHold(generation: number, admittedAt: number): boolean {
  return generation >= admittedAt;
}
