/** @jest-environment node */
import {
  DEFAULT_SCHEDULE,
  INITIAL_SCHEDULE,
  mayHold,
  rotationDueAt,
  scheduleOf,
  stepSchedule,
  type ScheduleEvent,
  type ScheduleSettings,
  type ScheduleState,
} from '@/lib/meeting/client/sfu/key-schedule';

// The sender-key schedule's decisions without timers or crypto (lib/meeting/client/sfu/key-schedule.ts):
// each row is a state, an event, and when the next rotation must come. SenderKeyRing runs them
// with timers (tests/unit/e2ee-key-schedule.test.ts runs those between real keys).

const S: ScheduleSettings = { debounceMs: 300, maxDelayMs: 1000, intervalMs: 300_000, graceMs: 5000 };
const state = (overrides: Partial<ScheduleState> = {}): ScheduleState => Object.freeze({ ...INITIAL_SCHEDULE, ...overrides });

type Row = { name: string; state: ScheduleState; event: ScheduleEvent; then: ScheduleState; due: number | null };

const table: Row[] = [
  {
    name: 'before our first key a join changes nothing: that key is made after it',
    state: state(),
    event: { type: 'changed', at: 50 },
    then: state(),
    due: null,
  },
  {
    name: 'our first key: the next rotation is one interval later',
    state: state(),
    event: { type: 'started', at: 1000 },
    then: state({ madeAt: 1000 }),
    due: 301_000,
  },
  {
    name: 'a join or leave: a rotation after the quiet time',
    state: state({ madeAt: 1000 }),
    event: { type: 'changed', at: 5000 },
    then: state({ madeAt: 1000, pendingSince: 5000, lastChange: 5000 }),
    due: 5300,
  },
  {
    name: 'another change within the quiet time moves the rotation on',
    state: state({ madeAt: 1000, pendingSince: 5000, lastChange: 5000 }),
    event: { type: 'changed', at: 5200 },
    then: state({ madeAt: 1000, pendingSince: 5000, lastChange: 5200 }),
    due: 5500,
  },
  {
    name: 'a burst never holds the rotation back beyond its cap after the first change',
    state: state({ madeAt: 1000, pendingSince: 5000, lastChange: 5800 }),
    event: { type: 'changed', at: 5900 },
    then: state({ madeAt: 1000, pendingSince: 5000, lastChange: 5900 }),
    due: 6000,
  },
  {
    name: 'a change just before the interval ends: the interval comes first',
    state: state({ madeAt: 1000 }),
    event: { type: 'changed', at: 300_900 },
    then: state({ madeAt: 1000, pendingSince: 300_900, lastChange: 300_900 }),
    due: 301_000,
  },
  {
    name: 'a rotation covers every change before it and starts a new interval',
    state: state({ madeAt: 1000, pendingSince: 5000, lastChange: 5200 }),
    event: { type: 'rotated', at: 5500 },
    then: state({ madeAt: 5500 }),
    due: 305_500,
  },
];

describe('key schedule decisions', () => {
  it.each(table)('$name', ({ state: before, event, then, due }) => {
    const after = stepSchedule(before, event);
    expect(after).toEqual(then);
    expect(rotationDueAt(after, S)).toBe(due);
  });

  it('defaults to a rotation at least every 5 minutes', () => {
    expect(DEFAULT_SCHEDULE.intervalMs).toBeLessThanOrEqual(5 * 60_000);
    expect(rotationDueAt(state({ madeAt: 0 }), DEFAULT_SCHEDULE)).toBe(DEFAULT_SCHEDULE.intervalMs);
  });

  /** Runs the decisions over joins at the given times, rotating whenever one falls due; the times of the rotations. */
  function rotationsFor(joins: number[], settings = DEFAULT_SCHEDULE, until = 10_000): number[] {
    let current = stepSchedule(INITIAL_SCHEDULE, { type: 'started', at: 0 });
    const rotations: number[] = [];
    const events = [...joins];
    for (let now = 0; now <= until; now += 1) {
      while (events[0] === now) current = stepSchedule(current, { type: 'changed', at: events.shift()! });
      if (rotationDueAt(current, settings)! <= now) {
        rotations.push(now);
        current = stepSchedule(current, { type: 'rotated', at: now });
      }
    }
    return rotations;
  }

  it('ten joins within a second make one rotation, after the last of them', () => {
    const joins = [100, 180, 260, 340, 420, 500, 580, 660, 740, 820];
    expect(rotationsFor(joins)).toEqual([1100]);
    // Spread out unevenly, still within the cap of the first: one rotation, after the tenth.
    expect(rotationsFor([100, 110, 120, 130, 140, 150, 160, 170, 350, 640])).toEqual([940]);
  });

  it('joins further apart than the quiet time each get their own rotation', () => {
    expect(rotationsFor([100, 2000, 4000])).toEqual([400, 2300, 4300]);
  });

  it('a quiet call still rotates every interval', () => {
    expect(rotationsFor([], { ...DEFAULT_SCHEDULE, intervalMs: 3000 })).toEqual([3000, 6000, 9000]);
  });
});

describe('who may hold which key', () => {
  it.each([
    { generation: 0, admittedAt: 0, may: true, why: 'here when our first key was made' },
    { generation: 3, admittedAt: 4, may: false, why: 'the key in use when it came: never' },
    { generation: 4, admittedAt: 4, may: true, why: 'the first key made after it came' },
    { generation: 9, admittedAt: 4, may: true, why: 'any later key' },
  ])('generation $generation, admitted at $admittedAt: $why', ({ generation, admittedAt, may }) => {
    expect(mayHold(generation, admittedAt)).toBe(may);
  });
});

describe('scheduleOf: the address may only shorten the rotation', () => {
  it.each([
    { search: '', expected: undefined },
    { search: '?media=sfu&keyEvery=4', expected: { intervalMs: 4000 } },
    { search: '?keyEvery=3', expected: { intervalMs: 3000 } },
    { search: '?keyEvery=299', expected: { intervalMs: 299_000 } },
    { search: '?keyEvery=2', expected: undefined },
    { search: '?keyEvery=300', expected: undefined },
    { search: '?keyEvery=86400', expected: undefined },
    { search: '?keyEvery=4.5', expected: undefined },
    { search: '?keyEvery=soon', expected: undefined },
  ])('$search', ({ search, expected }) => {
    expect(scheduleOf(search)).toEqual(expected);
  });
});
