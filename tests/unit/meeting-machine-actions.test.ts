/** @jest-environment node */
import { step, type Effect, type MeetingEvent } from '@/lib/meeting/client/call/machine';
import { CHAT_KEPT, CHAT_MAX_LENGTH, REACTION_MS } from '@/lib/meeting/client/call/chat';
import { person, SELF, LOCAL, AT, fresh, run, server, welcome, inCall, peer, frozen } from '../support/meeting-machine';

// The meeting's logic without a browser, beyond the server's events: host actions, reconnects,
// the key exchange's and the links' outcomes, local actions, chat, reactions, the monitors, and
// that no step writes into its input.

describe('host actions', () => {
  const host = () => run(inCall('x', 'y'), server({ type: 'knock', participant: person('k') })).state;
  it.each([
    // action, target, server status: knocks left, effects of the request, effects of the answer
    ['admit', 'k', 200, [], [{ type: 'keys-let-in', peerId: 'k', confirmed: true }], []],
    ['admit', 'k', 409, [], [{ type: 'keys-let-in', peerId: 'k', confirmed: true }], [{ type: 'keys-let-in', peerId: 'k', confirmed: false }]],
    ['deny', 'k', 200, [], [], []],
    ['mute', 'x', 200, ['k'], [], []],
    ['ask-unmute', 'x', 200, ['k'], [], []],
    [
      'remove',
      'x',
      200,
      ['k'],
      [],
      [
        { type: 'close-link', peerId: 'x' },
        { type: 'rekey', removed: 'x' },
      ],
    ],
    ['remove', 'x', 403, ['k'], [], []],
  ] as const)('%s %s, answered %i', (action, target, status, knocks, onRequest, onAnswer) => {
    const asked = step(frozen(host()), { type: 'host-action', action, target });
    expect(asked.state.view.knocks.map((p) => p.id)).toEqual(knocks);
    expect(asked.effects).toEqual(onRequest);
    expect(step(asked.state, { type: 'host-action-done', action, target, status }).effects).toEqual(onAnswer);
  });

  it.each([
    [200, true],
    [403, false],
  ])('lock: shown at once; a %i answer leaves it %s', (status, locked) => {
    const asked = step(inCall(), { type: 'lock', locked: true });
    expect(asked.state.view.locked).toBe(true);
    expect(step(asked.state, { type: 'lock-done', locked: true, previous: false, status }).state.view.locked).toBe(locked);
  });

  it('a refused lock does not undo what the server said meanwhile', () => {
    const { state } = run(inCall(), { type: 'lock', locked: true }, server({ type: 'locked', locked: false }), {
      type: 'lock-done',
      locked: true,
      previous: false,
      status: 500,
    });
    expect(state.view.locked).toBe(false);
  });
});

describe('reconnects', () => {
  it('a second welcome keeps the peers still there, drops the ones gone, adds the new ones, and greets everyone again', () => {
    const before = run(
      inCall('x', 'y'),
      { type: 'signaling', status: 'reconnecting' },
      { type: 'peer-keys', peerId: 'x', keys: 'verified' },
      { type: 'link-state', peerId: 'x', connection: 'connected' },
    ).state;
    expect(before.view.signaling).toBe('reconnecting');
    const { state, effects } = run(before, { type: 'signaling', status: 'open' }, welcome('x', 'z'));
    expect(state.view.signaling).toBe('open');
    expect(peer(state, 'x')).toBe(peer(before, 'x'));
    expect(state.view.peers.map((p) => [p.id, p.keys, p.connection])).toEqual([
      ['x', 'verified', 'connected'],
      ['z', 'pending', 'new'],
    ]);
    expect(effects).toEqual([
      { type: 'close-link', peerId: 'y' },
      { type: 'keys-forget', peerId: 'y' },
      { type: 'apply-encodings' },
      { type: 'apply-encodings' },
      { type: 'keys-release', peerId: 'z' },
      { type: 'keys-enter', others: ['x', 'z'] },
    ]);
  });

  it('the network coming back restarts ICE on every connection, not after the end', () => {
    expect(step(inCall('x'), { type: 'network-online' }).effects).toEqual([{ type: 'restart-ice' }]);
    expect(run(inCall('x'), { type: 'leave' }, { type: 'network-online' }).effects).toEqual([]);
  });

  it.each([
    ['in the call', 'rejected', () => inCall('x'), [{ type: 'shutdown' }]],
    ['after "removed" was handled', 'removed', () => run(inCall('x'), server({ type: 'removed' })).state, []],
    ['after "denied" was handled', 'denied', () => run(fresh(), server({ type: 'waiting', self: SELF }), server({ type: 'denied' })).state, []],
  ] as const)('the stream refused %s: phase %s', (_when, phase, from, effects) => {
    const result = step(from(), { type: 'stream-refused' });
    expect(result.state.view.phase).toBe(phase);
    expect(result.effects).toEqual(effects);
  });
});

describe('removal during the key exchange', () => {
  it('a peer that leaves before its announcement is verified gets no connection afterwards', () => {
    const { state } = run(inCall('x'), server({ type: 'leave', participantId: 'x', reason: 'removed' }));
    expect(step(state, { type: 'peer-verified', peerId: 'x', theyHandedOff: false }).effects).toEqual([]);
    expect(step(state, { type: 'peer-signal', peerId: 'x' }).effects).toEqual([]);
  });

  it('removed ourselves while the exchange runs: late outcomes and envelopes open nothing', () => {
    const { state } = run(inCall('x'), server({ type: 'removed' }));
    for (const event of [
      { type: 'peer-verified', peerId: 'x', theyHandedOff: false },
      { type: 'peer-signal', peerId: 'x' },
      server({ type: 'signal', from: 'x', envelope: '{}' }),
      welcome('x'),
    ] as MeetingEvent[])
      expect(step(state, event).effects).toEqual([]);
    expect(state.view.phase).toBe('removed');
  });

  it('the host removes a peer still pending: its connection closes, the meeting rekeys, the leave forgets it', () => {
    const { state, effects } = run(
      inCall('x', 'y'),
      { type: 'host-action', action: 'remove', target: 'x' },
      { type: 'host-action-done', action: 'remove', target: 'x', status: 200 },
    );
    expect(effects).toEqual([
      { type: 'close-link', peerId: 'x' },
      { type: 'rekey', removed: 'x' },
    ]);
    expect(step(state, server({ type: 'leave', participantId: 'x', reason: 'removed' })).effects).toContainEqual({ type: 'keys-forget', peerId: 'x' });
  });

  it('a rekey is accepted only from a host', () => {
    const state = run(fresh(person('m')), server({ type: 'welcome', self: person('m'), participants: [person('h', true), person('x')], locked: false })).state;
    const rekey = { t: 'rekey', epoch: 2, secret: 'A'.repeat(43) };
    expect(step(state, { type: 'peer-message', from: 'h', raw: rekey }).effects).toEqual([{ type: 'keys-accept-rekey', epoch: 2, secret: 'A'.repeat(43) }]);
    expect(step(state, { type: 'peer-message', from: 'x', raw: rekey }).effects).toEqual([]);
  });
});

describe('connections and key-exchange outcomes', () => {
  it.each([
    ['smaller id than theirs: we offer', 'x', false, [{ type: 'open-link', peerId: 'x', initiator: true }, { type: 'apply-encodings' }]],
    ['larger id than theirs: we wait for their offer', 'a', false, []],
    ['smaller id, but they handed us the key: they offer', 'x', true, []],
    ['larger id, and they handed us the key: they offer', 'a', true, []],
  ])('verified, %s', (_name, id, theyHandedOff, effects) => {
    expect(step(inCall(id), { type: 'peer-verified', peerId: id, theyHandedOff }).effects).toEqual(effects);
  });

  it.each([
    ['smaller id than theirs', 'x'],
    ['larger id than theirs', 'a'],
  ])('handed the key to a newcomer, %s: we offer at once', (_name, id) => {
    expect(step(inCall(id), { type: 'peer-handed-off', peerId: id }).effects).toEqual([
      { type: 'open-link', peerId: id, initiator: true },
      { type: 'apply-encodings' },
    ]);
  });

  it('a newcomer we connected to at the handoff who fails to prove the key: the connection closes; a verified peer keeps its own', () => {
    const handedOff = run(inCall('x'), { type: 'peer-handed-off', peerId: 'x' }, { type: 'peer-keys', peerId: 'x', keys: 'mismatch' });
    expect(handedOff.effects).toEqual([{ type: 'close-link', peerId: 'x' }]);
    expect(peer(handedOff.state, 'x')?.keys).toBe('mismatch');
    const verified = run(inCall('x'), { type: 'peer-keys', peerId: 'x', keys: 'verified' }, { type: 'peer-keys', peerId: 'x', keys: 'mismatch' });
    expect(verified.effects).toEqual([]);
  });

  it('their first signal opens the answering side', () => {
    expect(step(inCall('a'), { type: 'peer-signal', peerId: 'a' }).effects).toEqual([
      { type: 'open-link', peerId: 'a', initiator: false },
      { type: 'apply-encodings' },
    ]);
  });

  it('a tampered peer: connection closed and marked failed', () => {
    const { state, effects } = run(inCall('x'), { type: 'peer-tampered', peerId: 'x' });
    expect(peer(state, 'x')).toMatchObject({ keys: 'tampered', connection: 'failed' });
    expect(effects).toEqual([{ type: 'close-link', peerId: 'x' }]);
  });

  it('key states, the encryption indicator, connection states and tracks land on the right peer', () => {
    const track = { id: 'opaque' } as unknown as MediaStreamTrack;
    const encryption = { status: 'on' as const, source: 'link' as const, epoch: 1, password: false };
    const { state } = run(
      inCall('x', 'y'),
      { type: 'peer-keys', peerId: 'y', keys: 'mismatch' },
      { type: 'encryption', encryption },
      { type: 'link-state', peerId: 'x', connection: 'connected' },
      { type: 'remote-track', peerId: 'x', source: 'link', slot: 'camera', track },
    );
    expect(state.view.encryption).toEqual(encryption);
    expect(peer(state, 'x')).toMatchObject({ keys: 'pending', connection: 'connected', tracks: { camera: track } });
    expect(peer(state, 'y')).toMatchObject({ keys: 'mismatch', connection: 'new', tracks: {} });
  });

  it('an event about someone unknown changes nothing', () => {
    const state = inCall('x');
    for (const event of [
      { type: 'peer-keys', peerId: 'q', keys: 'verified' },
      { type: 'link-state', peerId: 'q', connection: 'connected' },
      { type: 'peer-message', from: 'q', raw: { t: 'chat', id: '1', text: 'hi', at: 1 } },
    ] as MeetingEvent[])
      expect(step(state, event).state).toBe(state);
  });

  it('an open channel gets our media state, and that we hide their tile', () => {
    const state = run(inCall('x'), { type: 'peer-visible', peerId: 'x', visible: false }).state;
    expect(step(state, { type: 'channel-open', peerId: 'x' }).effects).toEqual([
      { type: 'send-peer', peerId: 'x', message: { t: 'state', ...LOCAL } },
      { type: 'send-peer', peerId: 'x', message: { t: 'view', visible: false } },
    ]);
  });

  it('a peer hiding our camera lowers its budget; a malformed message is dropped', () => {
    const { state, effects } = run(inCall('x'), { type: 'peer-message', from: 'x', raw: { t: 'view', visible: false } });
    expect(state.viewers).toEqual({ x: false });
    expect(effects).toEqual([{ type: 'apply-encodings' }]);
    expect(step(state, { type: 'peer-message', from: 'x', raw: { t: 'view', visible: 'no' } }).state).toBe(state);
  });
});

describe('local actions, chat and reactions', () => {
  it.each([
    [{ type: 'set-muted', muted: true }, { muted: true }, [{ type: 'microphone', enabled: false }]],
    [{ type: 'camera', track: null }, { cameraOff: true }, [{ type: 'apply-encodings' }]],
    [{ type: 'screen', track: {} as MediaStreamTrack }, { sharing: true }, [{ type: 'apply-encodings' }]],
    [{ type: 'hand', hand: true }, { hand: true }, []],
    [{ type: 'recording', recording: true }, { recording: true }, []],
  ] as [MeetingEvent, object, Effect[]][])('%o: the local state changes and everyone is told', (event, change, before) => {
    const { state, effects } = step(frozen(inCall('x')), event);
    expect(state.view.local).toEqual({ ...LOCAL, ...change });
    expect(effects).toEqual([...before, { type: 'broadcast', message: { t: 'state', ...LOCAL, ...change } }]);
  });

  it('peer visibility is told once per change', () => {
    const hidden = step(inCall('x'), { type: 'peer-visible', peerId: 'x', visible: false });
    expect(hidden.effects).toEqual([{ type: 'send-peer', peerId: 'x', message: { t: 'view', visible: false } }]);
    expect(step(hidden.state, { type: 'peer-visible', peerId: 'x', visible: false }).effects).toEqual([]);
    expect(step(hidden.state, { type: 'peer-visible', peerId: 'x', visible: true }).state.hidden).toEqual([]);
  });

  it.each([
    ['spaces around: trimmed', '  hello  ', 'hello'],
    ['too long: cut', 'x'.repeat(CHAT_MAX_LENGTH + 5), 'x'.repeat(CHAT_MAX_LENGTH)],
    ['only spaces: nothing sent', '   ', null],
  ])('a typed message, %s', (_name, text, sent) => {
    const { state, effects } = step(inCall('x'), { type: 'send-chat', id: 'c1', text, at: AT });
    if (sent === null) return expect(effects).toEqual([]);
    expect(effects).toEqual([{ type: 'broadcast', message: { t: 'chat', id: 'c1', text: sent, at: AT } }]);
    expect(state.view.chat).toEqual([{ id: 'c1', from: 'm', name: 'M', text: sent, at: AT }]);
    expect(state.view.unreadChat).toBe(0);
  });

  it('messages from others count as unread while the panel is closed, once per id; opening it clears the count', () => {
    const chat = (id: string) => ({ type: 'peer-message', from: 'x', raw: { t: 'chat', id, text: 'hi', at: AT } }) as MeetingEvent;
    const closed = run(inCall('x'), chat('1'), chat('1'), chat('2')).state;
    expect([closed.view.chat.length, closed.view.unreadChat]).toEqual([2, 2]);
    const opened = run(closed, { type: 'chat-open', open: true }, chat('3')).state;
    expect([opened.view.chat.length, opened.view.unreadChat]).toEqual([3, 0]);
  });

  it(`keeps the last ${CHAT_KEPT} messages`, () => {
    let state = inCall('x');
    for (let i = 0; i <= CHAT_KEPT; i += 1) state = step(state, { type: 'peer-message', from: 'x', raw: { t: 'chat', id: `${i}`, text: 't', at: i } }).state;
    expect(state.view.chat.length).toBe(CHAT_KEPT);
    expect(state.view.chat[0]!.id).toBe('1');
  });

  it('a reaction shows, is sent, and goes away when its time is up', () => {
    const reacted = run(inCall('x'), { type: 'react', emoji: '👍' }, { type: 'peer-message', from: 'x', raw: { t: 'reaction', emoji: '🎉' } });
    expect(reacted.state.view.reactions.map((r) => [r.from, r.emoji])).toEqual([
      ['m', '👍'],
      ['x', '🎉'],
    ]);
    const [first, second] = reacted.state.view.reactions;
    expect(first!.id).not.toBe(second!.id);
    expect(reacted.effects).toEqual([{ type: 'expire-reaction', id: second!.id, afterMs: REACTION_MS }]);
    expect(step(reacted.state, { type: 'reaction-expired', id: first!.id }).state.view.reactions).toEqual([second]);
  });

  it('a host notice is dismissed', () => {
    const { state } = run(inCall('x'), server({ type: 'unmute-request', from: 'x' }), { type: 'dismiss-notice' });
    expect(state.view.hostNotice).toBeNull();
  });

  it('leaving tells the server and stops everything, once', () => {
    const left = step(inCall('x'), { type: 'leave' });
    expect(left.state.view.phase).toBe('left');
    expect(left.effects).toEqual([{ type: 'announce-leave' }, { type: 'shutdown' }]);
    expect(step(left.state, { type: 'leave' }).effects).toEqual([]);
  });
});

describe('monitors: active speaker and quality', () => {
  const withPeers = () => run(inCall('x', 'y'), { type: 'peer-message', from: 'y', raw: { t: 'state', ...LOCAL, muted: true } }).state;

  it('the loudest unmuted peer is highlighted; a muted one never', () => {
    const { state } = step(withPeers(), { type: 'levels', levels: { x: 0.3, y: 0.9 }, now: AT });
    expect(state.view.activeSpeaker).toBe('x');
  });

  it('levels that move while the highlight stays keep the same state object (no re-render four times a second)', () => {
    const speaking = step(withPeers(), { type: 'levels', levels: { x: 0.3 }, now: AT }).state;
    expect(step(speaking, { type: 'levels', levels: { x: 0.9, y: 0.4 }, now: AT + 5000 }).state).toBe(speaking);
    expect(step(speaking, { type: 'levels', levels: { x: 0 }, now: AT + 5000 }).state).toBe(speaking);
  });

  it('the highlight holds a moment before it moves to another voice', () => {
    const first = step(withPeers(), { type: 'levels', levels: { x: 0.3 }, now: AT }).state;
    const unmuted = step(first, { type: 'peer-message', from: 'y', raw: { t: 'state', ...LOCAL } }).state;
    expect(step(unmuted, { type: 'levels', levels: { x: 0.1, y: 0.8 }, now: AT + 500 }).state.view.activeSpeaker).toBe('x');
    expect(step(unmuted, { type: 'levels', levels: { x: 0.1, y: 0.8 }, now: AT + 1500 }).state.view.activeSpeaker).toBe('y');
  });

  it('quiet, unchanged levels keep the same state object (no re-render)', () => {
    const state = withPeers();
    expect(step(state, { type: 'levels', levels: { x: 0.01 }, now: AT }).state).toBe(state);
  });

  it('quality changes only the peers whose quality changed', () => {
    const state = inCall('x', 'y');
    const next = step(state, { type: 'quality', quality: { x: 'poor' } }).state;
    expect(peer(next, 'x')?.quality).toBe('poor');
    expect(peer(next, 'y')).toBe(peer(state, 'y'));
    expect(step(next, { type: 'quality', quality: { x: 'poor' } }).state).toBe(next);
  });
});

describe('purity', () => {
  it('never writes into the state it was given', () => {
    const state = frozen(run(inCall('x', 'y'), { type: 'peer-visible', peerId: 'x', visible: false }).state);
    expect(() =>
      run(
        state,
        server({ type: 'leave', participantId: 'x', reason: 'left' }),
        { type: 'levels', levels: { y: 0.5 }, now: AT },
        { type: 'peer-message', from: 'y', raw: { t: 'chat', id: '1', text: 'hi', at: 1 } },
        { type: 'leave' },
      ),
    ).not.toThrow();
    expect(state.view.peers.length).toBe(2);
  });
});
