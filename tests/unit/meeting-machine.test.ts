/** @jest-environment node */
import { step, type Effect, type MachineState } from '@/lib/meeting/client/call/machine';
import type { ServerEvent } from '@/lib/meeting/protocol';
import { person, SELF, LOCAL, AT, fresh, run, server, inCall, peer, types, frozen } from '../support/meeting-machine';

// The meeting's logic without a browser: each row is a state, an event, and what must come out.
// Here every server event; host and local actions, links, keys and monitors in
// meeting-machine-actions.test.ts.

describe('every server event', () => {
  type Row = { name: string; from: () => MachineState; event: ServerEvent; expect: (state: MachineState, effects: Effect[]) => void };
  // Keyed by every event type: a new server event does not compile until it has rows here.
  const table: Record<ServerEvent['type'], Row[]> = {
    welcome: [
      {
        name: 'alone: in the call, the key exchange starts with nobody',
        from: fresh,
        event: { type: 'welcome', self: SELF, participants: [SELF], locked: true },
        expect: (state, effects) => {
          expect(state.view.phase).toBe('in-call');
          expect(state.view.locked).toBe(true);
          expect(effects).toEqual([{ type: 'keys-enter', others: [] }]);
        },
      },
      {
        name: 'with others: each is added pending, their held envelopes released, then the exchange starts',
        from: fresh,
        event: { type: 'welcome', self: SELF, participants: [person('a'), SELF, person('z')], locked: false },
        expect: (state, effects) => {
          expect(state.view.peers.map((p) => [p.id, p.keys, p.connection])).toEqual([
            ['a', 'pending', 'new'],
            ['z', 'pending', 'new'],
          ]);
          expect(effects).toEqual([
            { type: 'apply-encodings' },
            { type: 'keys-release', peerId: 'a' },
            { type: 'apply-encodings' },
            { type: 'keys-release', peerId: 'z' },
            { type: 'keys-enter', others: ['a', 'z'] },
          ]);
        },
      },
    ],
    admitted: [
      {
        name: 'let in from the lobby: the same as a welcome',
        from: () => run(fresh(), server({ type: 'waiting', self: SELF })).state,
        event: { type: 'admitted', participants: [SELF, person('x')], locked: true },
        expect: (state, effects) => {
          expect(state.view.phase).toBe('in-call');
          expect(state.view.locked).toBe(true);
          expect(types(effects)).toEqual(['apply-encodings', 'keys-release', 'keys-enter']);
        },
      },
    ],
    waiting: [
      {
        name: 'told to wait: the waiting screen, nothing else',
        from: fresh,
        event: { type: 'waiting', self: SELF },
        expect: (state, effects) => {
          expect(state.view.phase).toBe('waiting');
          expect(effects).toEqual([]);
        },
      },
    ],
    denied: [
      {
        name: 'refused at the door: everything stops',
        from: () => run(fresh(), server({ type: 'waiting', self: SELF })).state,
        event: { type: 'denied' },
        expect: (state, effects) => {
          expect(state.view.phase).toBe('denied');
          expect(effects).toEqual([{ type: 'shutdown' }]);
        },
      },
    ],
    removed: [
      {
        name: 'removed by the host: peers and knocks cleared, everything stops',
        from: () => run(inCall('x'), server({ type: 'knock', participant: person('k') })).state,
        event: { type: 'removed' },
        expect: (state, effects) => {
          expect(state.view).toMatchObject({ phase: 'removed', peers: [], knocks: [] });
          expect(effects).toEqual([{ type: 'shutdown' }]);
        },
      },
    ],
    join: [
      {
        name: 'someone new: added pending, what they sent before released',
        from: () => inCall(),
        event: { type: 'join', participant: person('x') },
        expect: (state, effects) => {
          expect(peer(state, 'x')).toMatchObject({ keys: 'pending', connection: 'new', quality: 'unknown' });
          expect(effects).toEqual([{ type: 'apply-encodings' }, { type: 'keys-release', peerId: 'x' }]);
        },
      },
      {
        name: 'someone new whose join carries their handoff key: handled as their own request',
        from: () => inCall(),
        event: { type: 'join', participant: person('x'), keyRequest: 'K'.repeat(87) },
        expect: (state, effects) => {
          expect(peer(state, 'x')?.keys).toBe('pending');
          expect(effects).toEqual([
            { type: 'apply-encodings' },
            { type: 'keys-release', peerId: 'x' },
            { type: 'keys-receive', from: 'x', envelope: JSON.stringify({ k: 'handoff-request', key: 'K'.repeat(87) }) },
          ]);
        },
      },
      {
        name: 'our own join (another tab of ours is us): ignored',
        from: () => inCall(),
        event: { type: 'join', participant: SELF },
        expect: (state, effects) => {
          expect(state.view.peers).toEqual([]);
          expect(effects).toEqual([]);
        },
      },
      {
        name: 'someone already known: kept as is',
        from: () => run(inCall('x'), { type: 'peer-keys', peerId: 'x', keys: 'verified' }).state,
        event: { type: 'join', participant: person('x') },
        expect: (state, effects) => {
          expect(peer(state, 'x')?.keys).toBe('verified');
          expect(effects).toEqual([]);
        },
      },
    ],
    leave: [
      {
        name: 'a peer leaves: connection closed, keys forgotten, highlight and knock dropped',
        from: () => run(inCall('x', 'y'), { type: 'levels', levels: { x: 0.5 }, now: AT }, server({ type: 'knock', participant: person('x') })).state,
        event: { type: 'leave', participantId: 'x', reason: 'left' },
        expect: (state, effects) => {
          expect(state.view.peers.map((p) => p.id)).toEqual(['y']);
          expect(state.view.activeSpeaker).toBeNull();
          expect(state.view.knocks).toEqual([]);
          expect(effects).toEqual([{ type: 'close-link', peerId: 'x' }, { type: 'keys-forget', peerId: 'x' }, { type: 'apply-encodings' }]);
        },
      },
    ],
    signal: [
      {
        name: 'an envelope: handed to the key exchange, which checks it',
        from: () => inCall('x'),
        event: { type: 'signal', from: 'x', envelope: '{"k":"hello"}' },
        expect: (state, effects) => expect(effects).toEqual([{ type: 'keys-receive', from: 'x', envelope: '{"k":"hello"}' }]),
      },
    ],
    knock: [
      {
        name: 'someone knocks: listed once, however often',
        from: () => run(inCall(), server({ type: 'knock', participant: person('k') })).state,
        event: { type: 'knock', participant: person('k') },
        expect: (state) => expect(state.view.knocks.map((p) => p.id)).toEqual(['k']),
      },
    ],
    'knock-cancelled': [
      {
        name: 'they stopped waiting: off the list',
        from: () => run(inCall(), server({ type: 'knock', participant: person('k') })).state,
        event: { type: 'knock-cancelled', participantId: 'k' },
        expect: (state) => expect(state.view.knocks).toEqual([]),
      },
    ],
    locked: [
      {
        name: 'the server says locked',
        from: () => inCall(),
        event: { type: 'locked', locked: true },
        expect: (state) => expect(state.view.locked).toBe(true),
      },
    ],
    muted: [
      {
        name: 'the host muted us: microphone off, the others told, a notice',
        from: () => inCall('x'),
        event: { type: 'muted', from: 'x' },
        expect: (state, effects) => {
          expect(state.view.local.muted).toBe(true);
          expect(state.view.hostNotice).toEqual({ kind: 'muted', at: AT });
          expect(effects).toEqual([
            { type: 'microphone', enabled: false },
            { type: 'broadcast', message: { t: 'state', ...LOCAL, muted: true } },
          ]);
        },
      },
    ],
    'unmute-request': [
      {
        name: 'the host asks us to unmute: only a notice, the microphone stays as it is',
        from: () => run(inCall('x'), { type: 'set-muted', muted: true }).state,
        event: { type: 'unmute-request', from: 'x' },
        expect: (state, effects) => {
          expect(state.view.local.muted).toBe(true);
          expect(state.view.hostNotice).toEqual({ kind: 'unmute-request', at: AT });
          expect(effects).toEqual([]);
        },
      },
    ],
  };

  const rows = Object.entries(table).flatMap(([type, list]) => list.map((row) => [type, row.name, row] as const));
  it.each(rows)('%s: %s', (_type, _name, row) => {
    const before = frozen(row.from());
    const { state, effects } = step(before, server(row.event));
    row.expect(state, effects);
  });

  it.each(Object.keys(table))('after the meeting ended, "%s" changes nothing', (type) => {
    const ended = run(inCall('x'), { type: 'leave' }).state;
    const event = table[type as ServerEvent['type']][0]!.event;
    expect(step(ended, server(event))).toEqual({ state: ended, effects: [] });
  });
});
