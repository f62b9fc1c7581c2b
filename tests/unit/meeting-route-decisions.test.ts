/** @jest-environment node */
import {
  decideRoute,
  initialRoute,
  LOST_AGAIN_MS,
  RETRY_MS,
  type RouteEffect,
  type RouteInput,
  type RouteState,
} from '@/lib/meeting/client/call/route-decisions';
import { AUTO } from '@/lib/meeting/client/call/route-pin';
import { step } from '@/lib/meeting/client/call/machine';
import { initialState } from '@/lib/meeting/client/call/meeting-state';

// The media route's decisions without tickets or Janus (issue 49 point 1): each row is a state, the
// number in the call, an input, and what must come out (the session runs the effects through
// sfu/sfu-session.ts, whose outcomes come back as 'moved'; tests/unit/sfu-session.test.ts).

const state = (overrides: Partial<RouteState> = {}): RouteState => Object.freeze({ ...initialRoute(), ...overrides });
const ON_SFU = state({ route: 'sfu' });

type Row = { name: string; state: RouteState; participants: number; input: RouteInput; effects: RouteEffect[]; then: Partial<RouteState> };
type Input<T extends RouteInput['type']> = Extract<RouteInput, { type: T }>;

// Keyed by every input: a new input does not compile until it has rows here.
const table: { [T in RouteInput['type']]: (Row & { input: Input<T> })[] } = {
  check: [
    { name: 'a small call stays a mesh', state: state(), participants: 2, input: { type: 'check' }, effects: [], then: { route: 'mesh', moving: null } },
    {
      name: 'six people: to the SFU',
      state: state(),
      participants: 6,
      input: { type: 'check' },
      effects: [{ type: 'to-sfu' }],
      then: { moving: 'sfu', route: 'mesh' },
    },
    { name: 'between the edges the route stays (mesh)', state: state(), participants: 5, input: { type: 'check' }, effects: [], then: { route: 'mesh' } },
    { name: 'between the edges the route stays (sfu)', state: ON_SFU, participants: 5, input: { type: 'check' }, effects: [], then: { route: 'sfu' } },
    {
      name: 'four people: back to the mesh',
      state: ON_SFU,
      participants: 4,
      input: { type: 'check' },
      effects: [{ type: 'to-mesh' }],
      then: { moving: 'mesh', route: 'sfu' },
    },
    {
      name: 'a move under way: nothing else starts',
      state: state({ moving: 'sfu' }),
      participants: 9,
      input: { type: 'check' },
      effects: [],
      then: { moving: 'sfu' },
    },
    {
      name: 'refused: stays a mesh whatever the count',
      state: state({ refused: true }),
      participants: 9,
      input: { type: 'check' },
      effects: [],
      then: { route: 'mesh' },
    },
    { name: 'backing off: stays a mesh', state: state({ backingOff: true }), participants: 9, input: { type: 'check' }, effects: [], then: { route: 'mesh' } },
    {
      name: 'pinned to the SFU: moves with two',
      state: state({ pin: 'sfu' }),
      participants: 2,
      input: { type: 'check' },
      effects: [{ type: 'to-sfu' }],
      then: { moving: 'sfu' },
    },
    {
      name: 'pinned to the mesh: stays with twenty',
      state: state({ pin: 'mesh' }),
      participants: 20,
      input: { type: 'check' },
      effects: [],
      then: { route: 'mesh' },
    },
  ],
  moved: [
    {
      name: 'there: the route is the SFU',
      state: state({ moving: 'sfu' }),
      participants: 6,
      input: { type: 'moved', outcome: 'sfu' },
      effects: [],
      then: { route: 'sfu', moving: null },
    },
    {
      name: 'there, but the call shrank meanwhile: straight back',
      state: state({ moving: 'sfu' }),
      participants: 3,
      input: { type: 'moved', outcome: 'sfu' },
      effects: [{ type: 'to-mesh' }],
      then: { route: 'sfu', moving: 'mesh' },
    },
    {
      name: 'the server has no SFU: refused for good, no retry',
      state: state({ moving: 'sfu' }),
      participants: 6,
      input: { type: 'moved', outcome: 'none' },
      effects: [],
      then: { refused: true, route: 'mesh', moving: null },
    },
    {
      name: 'no ticket now or Janus refused: back off and retry later',
      state: state({ moving: 'sfu' }),
      participants: 6,
      input: { type: 'moved', outcome: 'failed' },
      effects: [{ type: 'retry-after', ms: RETRY_MS }],
      then: { backingOff: true, route: 'mesh', moving: null },
    },
    {
      name: 'after a loss, back on the links: the new ticket at once, once',
      state: state({ route: 'sfu', moving: 'mesh', reticket: true, lostAt: 1_000 }),
      participants: 6,
      input: { type: 'moved', outcome: 'mesh' },
      effects: [{ type: 'to-sfu' }],
      then: { route: 'mesh', moving: 'sfu', reticket: false },
    },
    {
      name: 'after a loss, between the edges: the call was on the SFU, it asks again',
      state: state({ route: 'sfu', moving: 'mesh', reticket: true, lostAt: 1_000 }),
      participants: 5,
      input: { type: 'moved', outcome: 'mesh' },
      effects: [{ type: 'to-sfu' }],
      then: { route: 'mesh', moving: 'sfu', reticket: false },
    },
    {
      name: 'after a loss, the call shrank to mesh size: it stays on the mesh',
      state: state({ route: 'sfu', moving: 'mesh', reticket: true, lostAt: 1_000 }),
      participants: 4,
      input: { type: 'moved', outcome: 'mesh' },
      effects: [],
      then: { route: 'mesh', moving: null, reticket: false },
    },
    {
      name: 'the new ticket after a loss failed (no healthy node): back off as before',
      state: state({ moving: 'sfu', lostAt: 1_000 }),
      participants: 6,
      input: { type: 'moved', outcome: 'failed' },
      effects: [{ type: 'retry-after', ms: RETRY_MS }],
      then: { backingOff: true, route: 'mesh', moving: null },
    },
    {
      name: 'back on the mesh',
      state: state({ route: 'sfu', moving: 'mesh' }),
      participants: 4,
      input: { type: 'moved', outcome: 'mesh' },
      effects: [],
      then: { route: 'mesh', moving: null },
    },
  ],
  lost: [
    {
      name: 'Janus went away: media back on the links at once, then a new ticket (no back-off)',
      state: ON_SFU,
      participants: 6,
      input: { type: 'lost', at: 1_000 },
      effects: [{ type: 'to-mesh' }],
      then: { backingOff: false, reticket: true, lostAt: 1_000, moving: 'mesh' },
    },
    {
      name: 'lost again soon after the last loss: back off as before, no loop',
      state: state({ route: 'sfu', lostAt: 1_000 }),
      participants: 6,
      input: { type: 'lost', at: 1_000 + LOST_AGAIN_MS - 1 },
      effects: [{ type: 'retry-after', ms: RETRY_MS }, { type: 'to-mesh' }],
      then: { backingOff: true, reticket: false, lostAt: 1_000 + LOST_AGAIN_MS - 1, moving: 'mesh' },
    },
    {
      name: 'lost long after the last loss: a new ticket at once again',
      state: state({ route: 'sfu', lostAt: 1_000 }),
      participants: 6,
      input: { type: 'lost', at: 1_000 + LOST_AGAIN_MS },
      effects: [{ type: 'to-mesh' }],
      then: { backingOff: false, reticket: true, moving: 'mesh' },
    },
    {
      name: 'lost while moving back to the mesh anyway: no second move now',
      state: state({ route: 'sfu', moving: 'mesh' }),
      participants: 4,
      input: { type: 'lost', at: 1_000 },
      effects: [],
      then: { reticket: true, moving: 'mesh' },
    },
  ],
  'retry-due': [
    {
      name: 'still big enough: to the SFU again',
      state: state({ backingOff: true }),
      participants: 6,
      input: { type: 'retry-due' },
      effects: [{ type: 'to-sfu' }],
      then: { backingOff: false, moving: 'sfu' },
    },
    {
      name: 'the call shrank meanwhile: stays a mesh',
      state: state({ backingOff: true }),
      participants: 3,
      input: { type: 'retry-due' },
      effects: [],
      then: { backingOff: false, moving: null },
    },
  ],
};

describe.each(Object.entries(table))('%s', (_input, rows) => {
  it.each(rows.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    const result = decideRoute(row.state, row.input, row.participants);
    expect(result.effects).toEqual(row.effects);
    expect(result.state).toMatchObject(row.then);
  });
});

it('the refusal stays through a failed retry chain: the whole story of a call that grows on a server without an SFU', () => {
  let route = initialRoute(AUTO);
  const run = (input: RouteInput, participants: number) => {
    const next = decideRoute(route, input, participants);
    route = next.state;
    return next.effects;
  };
  expect(run({ type: 'check' }, 6)).toEqual([{ type: 'to-sfu' }]);
  expect(run({ type: 'moved', outcome: 'none' }, 7)).toEqual([]);
  expect(run({ type: 'check' }, 12)).toEqual([]);
  expect(route).toMatchObject({ route: 'mesh', refused: true });
});

describe('in the meeting machine', () => {
  const self = { id: 'm', name: 'Me', isHost: true };
  const LOCAL = { muted: false, cameraOff: false, sharing: false, hand: false, recording: false };
  const people = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i === 0 ? 'm' : `p${i}`, name: `P${i}`, isHost: i === 0 }));

  it('moves on the welcome of a sixth, shows the route once there, and goes back on a lost Janus, asks a new ticket at once and backs off when lost again soon', () => {
    let machine = initialState({ self, local: LOCAL, camera: null, password: false });
    let result = step(machine, { type: 'server', event: { type: 'welcome', self, participants: people(6), locked: false }, at: 1 });
    expect(result.effects).toContainEqual({ type: 'route', effect: { type: 'to-sfu' } });
    expect(result.state.view.mediaRoute).toBe('mesh');
    machine = result.state;
    result = step(machine, { type: 'route', input: { type: 'moved', outcome: 'sfu' } });
    expect(result.state.view.mediaRoute).toBe('sfu');
    result = step(result.state, { type: 'route', input: { type: 'lost', at: 5_000 } });
    expect(result.effects).toEqual([{ type: 'route', effect: { type: 'to-mesh' } }]);
    result = step(result.state, { type: 'route', input: { type: 'moved', outcome: 'mesh' } });
    expect(result.state.view.mediaRoute).toBe('mesh');
    // The new ticket at once: the server places the meeting on a healthy node.
    expect(result.effects).toEqual([{ type: 'route', effect: { type: 'to-sfu' } }]);
    result = step(result.state, { type: 'route', input: { type: 'moved', outcome: 'sfu' } });
    expect(result.state.view.mediaRoute).toBe('sfu');
    // That node fails too, ten seconds later: back off to the mesh, no loop.
    result = step(result.state, { type: 'route', input: { type: 'lost', at: 15_000 } });
    expect(result.effects).toEqual([
      { type: 'route', effect: { type: 'retry-after', ms: RETRY_MS } },
      { type: 'route', effect: { type: 'to-mesh' } },
    ]);
    result = step(result.state, { type: 'route', input: { type: 'moved', outcome: 'mesh' } });
    expect(result.effects).toEqual([]);
    expect(result.state.view.mediaRoute).toBe('mesh');
  });

  it('after the end, no move starts', () => {
    const machine = initialState({ self, local: LOCAL, camera: null, password: false, pin: 'sfu' });
    const left = step(machine, { type: 'leave' }).state;
    expect(step(left, { type: 'route', input: { type: 'retry-due' } }).effects).toEqual([]);
  });
});
