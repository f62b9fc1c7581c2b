/** @jest-environment node */
import {
  decide,
  describedSdp,
  initialExchange,
  mustHold,
  type ExchangeEffect,
  type ExchangeInput,
  type ExchangeState,
  type Facts,
} from '@/lib/meeting/client/keys/key-decisions';
import type { PeerKeyState } from '@/lib/meeting/client/keys/key-state';
import type { JoinAnnouncement } from '@/lib/meeting/e2ee/signing';

// The key exchange's decisions without crypto or a network: each row is a state, the facts of the
// moment, an input, and what must come out (KeyExchange runs the effects; meeting-key-exchange*
// tests run them between real keys).

const SELF = 'm';
const peer = (id: string, keys: PeerKeyState = 'pending', isHost = false) => ({ id, isHost, keys });
const ON = { status: 'on', source: 'link', epoch: 0, password: false } as const;
const WAITING = { status: 'waiting-key', source: null, epoch: 0, password: false } as const;

/** Holding S, with peers a and z, not gated. */
function facts(overrides: Partial<Facts> = {}): Facts {
  return { hasSecret: true, source: 'link', selfIsHost: false, gated: false, peers: [peer('a'), peer('z')], encryption: ON, ...overrides };
}
const noKey = (overrides: Partial<Facts> = {}) => facts({ hasSecret: false, source: null, encryption: WAITING, ...overrides });
const state = (overrides: Partial<ExchangeState> = {}): ExchangeState => ({ ...initialExchange(SELF), ...overrides });
const announcement = (id: string) => ({ id }) as unknown as JoinAnnouncement;
const signal = (from: string) => ({ from, to: SELF, seq: 1, body: {}, sig: 'x' });
const offer = { description: { type: 'offer' as const, sdp: 'v=0' } };

/** Deeply frozen: a decision that wrote into its input would throw. */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozen(inner);
  }
  return value;
}

type Row = { name: string; state?: ExchangeState; facts: Facts; input: ExchangeInput; effects: ExchangeEffect[]; then?: Partial<ExchangeState> };
type Input<T extends ExchangeInput['type']> = Extract<ExchangeInput, { type: T }>;

// Keyed by every input: a new input does not compile until it has rows here.
const table: { [T in ExchangeInput['type']]: (Row & { input: Input<T> })[] } = {
  enter: [
    {
      name: 'alone without S: make it, then enter again (now holding it)',
      facts: noKey({ peers: [], encryption: { ...WAITING, status: 'starting' } }),
      input: { type: 'enter', others: [] },
      effects: [{ type: 'make-secret' }, { type: 'enter', others: [] }],
    },
    {
      name: 'holding S: the indicator is on, each other gets our announcement, waiting requests are answered',
      state: state({ unanswered: [['a', 'key-a']] }),
      facts: facts(),
      input: { type: 'enter', others: ['a', 'z'] },
      effects: [
        { type: 'encryption-on' },
        { type: 'announce', to: 'a', reply: false, lazy: false },
        { type: 'announce', to: 'z', reply: false, lazy: false },
        { type: 'answer-waiting', requests: [['a', 'key-a']] },
      ],
      then: { unanswered: [] },
    },
    {
      name: 'first entry with the link’s S among others: the link is on trial until one of them verifies it (issue 48)',
      facts: facts({ encryption: { ...ON, status: 'starting', source: null } }),
      input: { type: 'enter', others: ['a', 'z'] },
      effects: [
        { type: 'encryption-on' },
        { type: 'announce', to: 'a', reply: false, lazy: false },
        { type: 'announce', to: 'z', reply: false, lazy: false },
        { type: 'answer-waiting', requests: [] },
      ],
      then: { linkOnTrial: ['a', 'z'] },
    },
    {
      name: 'first entry holding a S we made, or entering again after a reconnect: nothing on trial',
      facts: facts({ source: 'created', encryption: { ...ON, status: 'starting', source: null } }),
      input: { type: 'enter', others: ['a'] },
      effects: [{ type: 'encryption-on' }, { type: 'announce', to: 'a', reply: false, lazy: false }, { type: 'answer-waiting', requests: [] }],
    },
    {
      name: 'without S among others: waiting for the key, a request to each',
      facts: noKey({ encryption: { ...ON, status: 'starting', source: null } }),
      input: { type: 'enter', others: ['a', 'z'] },
      effects: [
        { type: 'encryption', patch: { status: 'waiting-key', source: null, epoch: 0 } },
        { type: 'ask-for-key', to: ['a', 'z'] },
      ],
    },
    {
      name: 'without S, the join carried our request: nobody is asked again, once',
      state: state({ requestPosted: true }),
      facts: noKey(),
      input: { type: 'enter', others: ['a'] },
      effects: [
        { type: 'encryption', patch: { status: 'waiting-key', source: null, epoch: 0 } },
        { type: 'ask-for-key', to: [] },
      ],
      then: { requestPosted: false },
    },
  ],
  'let-in': [
    { name: 'the host lets someone in', facts: facts(), input: { type: 'let-in', id: 'n', confirmed: true }, effects: [], then: { letInHere: ['n'] } },
    {
      name: 'the server refused it: taken back',
      state: state({ letInHere: ['n'] }),
      facts: facts(),
      input: { type: 'let-in', id: 'n', confirmed: false },
      effects: [],
      then: { letInHere: [] },
    },
  ],
  'peer-left': [
    {
      name: 'holding S: only what we knew of it is forgotten',
      state: state({ unanswered: [['a', 'k']], handedOffTo: ['a'], handedOffBy: ['a', 'z'] }),
      facts: facts({ peers: [peer('z')] }),
      input: { type: 'peer-left', id: 'a', keysReady: true },
      effects: [],
      then: { unanswered: [], handedOffTo: [], handedOffBy: ['z'] },
    },
    {
      name: 'waiting for S and now alone: we are the first, and make it',
      facts: noKey({ peers: [] }),
      input: { type: 'peer-left', id: 'a', keysReady: true },
      effects: [{ type: 'enter', others: [] }],
    },
    {
      name: 'waiting for S with others left: ask them again, then see whether anyone holds it',
      facts: noKey({ peers: [peer('z')] }),
      input: { type: 'peer-left', id: 'a', keysReady: true },
      effects: [
        { type: 'ask-for-key', to: ['z'] },
        { type: 'recheck', input: 'check-nobody-holds' },
      ],
    },
    { name: 'keys not made yet: nothing to ask', facts: noKey({ peers: [] }), input: { type: 'peer-left', id: 'a', keysReady: false }, effects: [] },
    {
      name: 'one our link is on trial with leaves: off the trial',
      state: state({ linkOnTrial: ['a', 'z'] }),
      facts: facts({ peers: [peer('z')] }),
      input: { type: 'peer-left', id: 'a', keysReady: true },
      effects: [],
      then: { linkOnTrial: ['z'] },
    },
  ],
  hello: [
    {
      name: 'an announcement is checked',
      facts: facts(),
      input: { type: 'hello', from: 'a', announcement: announcement('a'), reply: false },
      effects: [{ type: 'check-announcement', from: 'a', announcement: announcement('a'), reply: false }],
    },
    {
      name: 'one that names someone else is dropped',
      facts: facts(),
      input: { type: 'hello', from: 'a', announcement: announcement('z'), reply: false },
      effects: [],
    },
  ],
  'announcement-checked': [
    {
      name: 'verified, from a smaller id (it offers): answered at once, connections may be made, what it sent is released',
      facts: facts(),
      input: { type: 'announcement-checked', from: 'a', reply: false, result: 'ok' },
      effects: [
        { type: 'announce', to: 'a', reply: true, lazy: false },
        { type: 'peer-keys', id: 'a', keys: 'verified' },
        { type: 'recheck', input: 'check-wrong-key' },
        { type: 'verified', id: 'a', theyHandedOff: false },
        { type: 'release', id: 'a' },
      ],
    },
    {
      name: 'from a larger id (we offer): our answer waits for our description',
      facts: facts(),
      input: { type: 'announcement-checked', from: 'z', reply: false, result: 'ok' },
      effects: [
        { type: 'announce', to: 'z', reply: true, lazy: true },
        { type: 'peer-keys', id: 'z', keys: 'verified' },
        { type: 'recheck', input: 'check-wrong-key' },
        { type: 'verified', id: 'z', theyHandedOff: false },
        { type: 'release', id: 'z' },
      ],
    },
    {
      name: 'from whoever handed us S, a smaller id: lazy answer all the same, and it offers',
      state: state({ handedOffBy: ['a'] }),
      facts: facts(),
      input: { type: 'announcement-checked', from: 'a', reply: false, result: 'ok' },
      effects: [
        { type: 'announce', to: 'a', reply: true, lazy: true },
        { type: 'peer-keys', id: 'a', keys: 'verified' },
        { type: 'recheck', input: 'check-wrong-key' },
        { type: 'verified', id: 'a', theyHandedOff: true },
        { type: 'release', id: 'a' },
      ],
    },
    {
      name: 'our link on trial, refused by one who was here before us: the link is out of date, we drop its S and ask everyone for the meeting’s (issue 48)',
      state: state({ linkOnTrial: ['a', 'z'] }),
      facts: facts({ peers: [peer('a', 'mismatch'), peer('z'), peer('n')] }),
      input: { type: 'announcement-checked', from: 'z', reply: true, result: 'mismatch' },
      effects: [
        { type: 'drop-secret' },
        { type: 'peer-keys', id: 'a', keys: 'pending' },
        { type: 'encryption', patch: { status: 'waiting-key', source: null, epoch: 0, staleLink: true } },
        { type: 'ask-for-key', to: ['a', 'z', 'n'] },
      ],
      then: { linkOnTrial: [] },
    },
    {
      name: 'our link on trial, verified by one who was here: it is the meeting’s key, the trial ends',
      state: state({ linkOnTrial: ['a', 'z'] }),
      facts: facts(),
      input: { type: 'announcement-checked', from: 'z', reply: true, result: 'ok' },
      effects: [
        { type: 'peer-keys', id: 'z', keys: 'verified' },
        { type: 'recheck', input: 'check-wrong-key' },
        { type: 'verified', id: 'z', theyHandedOff: false },
        { type: 'release', id: 'z' },
      ],
      then: { linkOnTrial: [] },
    },
    {
      name: 'a newcomer with an old link refused by us, who held S first: only that peer is a mismatch; our key stays',
      facts: facts({ peers: [peer('n')] }),
      input: { type: 'announcement-checked', from: 'n', reply: false, result: 'mismatch' },
      effects: [
        { type: 'announce', to: 'n', reply: true, lazy: true },
        { type: 'peer-keys', id: 'n', keys: 'mismatch' },
        { type: 'recheck', input: 'check-wrong-key' },
      ],
    },
    {
      name: 'a reply is not answered; a mismatch is marked and checked for a wrong key, no connection',
      facts: facts(),
      input: { type: 'announcement-checked', from: 'z', reply: true, result: 'mismatch' },
      effects: [
        { type: 'peer-keys', id: 'z', keys: 'mismatch' },
        { type: 'recheck', input: 'check-wrong-key' },
      ],
    },
  ],
  'handoff-request': [
    {
      name: 'holding S: the key is sealed to it, then we offer',
      facts: facts(),
      input: { type: 'handoff-request', from: 'a', key: 'k', canAnswer: true },
      effects: [
        { type: 'hand-key', to: 'a', key: 'k' },
        { type: 'handed-off', to: 'a' },
      ],
      then: { handedOffTo: ['a'] },
    },
    { name: 'a key we cannot seal to: nothing', facts: facts(), input: { type: 'handoff-request', from: 'a', key: 'bad', canAnswer: false }, effects: [] },
    { name: 'from someone gone: nothing', facts: facts({ peers: [] }), input: { type: 'handoff-request', from: 'a', key: 'k', canAnswer: true }, effects: [] },
    {
      name: 'gated: not to someone this host did not let in',
      facts: facts({ gated: true, selfIsHost: true }),
      input: { type: 'handoff-request', from: 'a', key: 'k', canAnswer: true },
      effects: [],
    },
    {
      name: 'gated: to someone this host let in',
      state: state({ letInHere: ['a'] }),
      facts: facts({ gated: true, selfIsHost: true }),
      input: { type: 'handoff-request', from: 'a', key: 'k', canAnswer: true },
      effects: [
        { type: 'hand-key', to: 'a', key: 'k' },
        { type: 'handed-off', to: 'a' },
      ],
      then: { handedOffTo: ['a'] },
    },
    {
      name: 'gated, not the host here: only to the room’s host coming back',
      state: state({ letInHere: ['a'] }),
      facts: facts({ gated: true, peers: [peer('a'), peer('h', 'pending', true)] }),
      input: { type: 'handoff-request', from: 'h', key: 'k', canAnswer: true },
      effects: [
        { type: 'hand-key', to: 'h', key: 'k' },
        { type: 'handed-off', to: 'h' },
      ],
      then: { handedOffTo: ['h'] },
    },
    {
      name: 'without S: kept until we have it',
      facts: noKey(),
      input: { type: 'handoff-request', from: 'a', key: 'k', canAnswer: false },
      effects: [],
      then: { unanswered: [['a', 'k']] },
    },
    {
      name: 'without S, a second request from the same peer replaces the first in its place',
      state: state({
        unanswered: [
          ['a', 'k1'],
          ['z', 'kz'],
        ],
      }),
      facts: noKey({ peers: [peer('a'), peer('z'), peer('b')] }),
      input: { type: 'handoff-request', from: 'a', key: 'k2', canAnswer: false },
      effects: [],
      then: {
        unanswered: [
          ['a', 'k2'],
          ['z', 'kz'],
        ],
      },
    },
    {
      name: 'without S, and now everyone here asked us: nobody holds it, and the smallest id (us) makes it',
      state: state({ unanswered: [['z', 'kz']] }),
      facts: noKey({ peers: [peer('x'), peer('z')] }),
      input: { type: 'handoff-request', from: 'x', key: 'kx', canAnswer: false },
      effects: [{ type: 'enter', others: [] }],
      then: {
        unanswered: [
          ['z', 'kz'],
          ['x', 'kx'],
        ],
      },
    },
    {
      name: 'without S, everyone asked, but a smaller id is here: it makes S, not us',
      state: state({ unanswered: [['z', 'kz']] }),
      facts: noKey({ peers: [peer('a'), peer('z')] }),
      input: { type: 'handoff-request', from: 'a', key: 'ka', canAnswer: false },
      effects: [],
      then: {
        unanswered: [
          ['z', 'kz'],
          ['a', 'ka'],
        ],
      },
    },
  ],
  handoff: [
    {
      name: 'without S: the handoff is opened, and its sender offers to us',
      facts: noKey(),
      input: { type: 'handoff', from: 'a', handoff: { holderKey: 'h', box: 'b' } },
      effects: [{ type: 'open-handoff', from: 'a', handoff: { holderKey: 'h', box: 'b' } }],
      then: { handedOffBy: ['a'] },
    },
    {
      name: 'holding S already: not opened, but its sender still offers',
      facts: facts(),
      input: { type: 'handoff', from: 'a', handoff: { holderKey: 'h', box: 'b' } },
      effects: [],
      then: { handedOffBy: ['a'] },
    },
  ],
  'key-received': [
    {
      name: 'the indicator is on, waiting requests answered, then everyone gets our announcement',
      state: state({ unanswered: [['z', 'kz']] }),
      facts: facts(),
      input: { type: 'key-received' },
      effects: [{ type: 'encryption-on' }, { type: 'answer-waiting', requests: [['z', 'kz']] }, { type: 'announce-to-all' }],
      then: { unanswered: [] },
    },
  ],
  signed: [
    {
      name: 'a signed signal is opened',
      facts: facts(),
      input: { type: 'signed', from: 'a', signal: signal('a') },
      effects: [{ type: 'open-signal', from: 'a', signal: signal('a') }],
    },
    { name: 'signed by someone else than its sender: dropped', facts: facts(), input: { type: 'signed', from: 'a', signal: signal('z') }, effects: [] },
    {
      name: 'from a tampered peer: dropped',
      facts: facts({ peers: [peer('a', 'tampered')] }),
      input: { type: 'signed', from: 'a', signal: signal('a') },
      effects: [],
    },
  ],
  'signal-checked': [
    {
      name: 'checked: handed to the session',
      facts: facts(),
      input: { type: 'signal-checked', from: 'a', check: { ok: true, body: offer, fingerprintMatches: true } },
      effects: [{ type: 'signal', from: 'a', body: offer }],
    },
    {
      name: 'a bad signature: the relay changed it, the peer is refused',
      facts: facts(),
      input: { type: 'signal-checked', from: 'a', check: { ok: false, reason: 'signature' } },
      effects: [{ type: 'tampered', id: 'a' }],
    },
    {
      name: 'unopenable for another reason (a replay, say): dropped',
      facts: facts(),
      input: { type: 'signal-checked', from: 'a', check: { ok: false, reason: 'other' } },
      effects: [],
    },
    {
      name: 'another DTLS fingerprint: refused',
      facts: facts(),
      input: { type: 'signal-checked', from: 'a', check: { ok: true, body: offer, fingerprintMatches: false } },
      effects: [{ type: 'tampered', id: 'a' }],
    },
    {
      name: 'a body that is no signal: dropped',
      facts: facts(),
      input: { type: 'signal-checked', from: 'a', check: { ok: true, body: null, fingerprintMatches: true } },
      effects: [],
    },
  ],
  'check-wrong-key': [
    {
      name: 'a key handed over that every peer refuses: wrong key',
      facts: facts({ source: 'handoff', peers: [peer('a', 'mismatch'), peer('z', 'mismatch')] }),
      input: { type: 'check-wrong-key' },
      effects: [{ type: 'encryption', patch: { status: 'wrong-key', source: 'handoff' } }],
    },
    {
      name: 'a lone holder whose newcomer brought an old link: still on, the newcomer asks for the key (issue 48)',
      facts: facts({ peers: [peer('n', 'mismatch')] }),
      input: { type: 'check-wrong-key' },
      effects: [],
    },
    {
      name: 'a lone maker of S, the same',
      facts: facts({ source: 'created', peers: [peer('n', 'mismatch')] }),
      input: { type: 'check-wrong-key' },
      effects: [],
    },
    {
      name: 'one verified: still on, nothing to change',
      facts: facts({ peers: [peer('a', 'mismatch'), peer('z', 'verified')] }),
      input: { type: 'check-wrong-key' },
      effects: [],
    },
    {
      name: 'no longer all mismatches, holding S: back on',
      facts: facts({ peers: [peer('a', 'verified')], encryption: { ...ON, status: 'wrong-key' } }),
      input: { type: 'check-wrong-key' },
      effects: [{ type: 'encryption', patch: { status: 'on', source: 'link' } }],
    },
    { name: 'nobody here: unchanged', facts: noKey({ peers: [] }), input: { type: 'check-wrong-key' }, effects: [] },
  ],
  'check-nobody-holds': [
    {
      name: 'everyone asked us, none smaller: we make S',
      state: state({ unanswered: [['z', 'k']] }),
      facts: noKey({ peers: [peer('z')] }),
      input: { type: 'check-nobody-holds' },
      effects: [{ type: 'enter', others: [] }],
    },
    {
      name: 'someone has not asked: maybe it holds S',
      state: state({ unanswered: [['z', 'k']] }),
      facts: noKey({ peers: [peer('x'), peer('z')] }),
      input: { type: 'check-nobody-holds' },
      effects: [],
    },
    {
      name: 'we got S meanwhile: nothing',
      state: state({ unanswered: [['z', 'k']] }),
      facts: facts({ peers: [peer('z')] }),
      input: { type: 'check-nobody-holds' },
      effects: [],
    },
  ],
};

describe('every input of the key exchange', () => {
  for (const [type, rows] of Object.entries(table) as [string, Row[]][]) {
    describe(type, () => {
      it.each(rows.map((row) => [row.name, row] as const))('%s', (_name, row) => {
        const before = frozen(row.state ?? state());
        const { state: after, effects } = decide(before, frozen(row.input), frozen(row.facts));
        expect(effects).toEqual(row.effects);
        expect(after).toEqual({ ...before, ...row.then });
      });
    });
  }
});

describe('what waits and what is checked', () => {
  it('an envelope waits for an announced sender, an announcement for S, a signed message for its sender’s announcement', () => {
    const known = { peer: true, hasSecret: true, verified: true };
    expect(mustHold('hello', known)).toBe(false);
    expect(mustHold('hello', { ...known, peer: false })).toBe(true);
    expect(mustHold('hello', { ...known, hasSecret: false })).toBe(true);
    expect(mustHold('handoff', { ...known, hasSecret: false, verified: false })).toBe(false);
    expect(mustHold('signed', { ...known, verified: false })).toBe(true);
  });

  it('only a description with SDP has a fingerprint to check', () => {
    expect(describedSdp(offer)).toBe('v=0');
    expect(describedSdp({ description: { type: 'rollback' } })).toBeNull();
    expect(describedSdp({ candidate: null })).toBeNull();
  });
});
