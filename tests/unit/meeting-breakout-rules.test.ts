/** @jest-environment node */
import {
  apart,
  backToMain,
  initialBreakout,
  MAIN,
  MAX_ASSIGNED,
  parseBreakoutMessage,
  reduceBreakout,
  roomOf,
  shuffled,
  splitEvenly,
  type BreakoutMessage,
  type BreakoutState,
} from '@/lib/meeting/client/breakout/breakout-rules';
import { BreakoutFeature } from '@/lib/meeting/client/breakout/breakout-feature';
import type { FeatureContext } from '@/lib/meeting/client/call/features';
import { featureContext } from '../support/feature-context';

// Breakout rooms' rules (lib/meeting/client/breakout/breakout-rules.ts): which control messages
// are heard at all, who is obeyed, how an assignment splits the call and whom each page keeps apart.

const OPEN = { t: 'breakout-open', round: 1, count: 2, rooms: { ada: 0, bob: 1 } };

describe('parseBreakoutMessage: hostile or malformed input is dropped', () => {
  const many = Object.fromEntries(Array.from({ length: MAX_ASSIGNED + 1 }, (_, at) => [`p${at}`, 0]));
  it.each<[string, unknown, boolean]>([
    ['a well-formed open', OPEN, true],
    ['one room', { ...OPEN, count: 1, rooms: { ada: 0 } }, false],
    ['eleven rooms', { ...OPEN, count: 11 }, false],
    ['a room index past the count', { ...OPEN, rooms: { ada: 2 } }, false],
    ['a negative room', { ...OPEN, rooms: { ada: -1 } }, false],
    ['a fractional room', { ...OPEN, rooms: { ada: 0.5 } }, false],
    ['an id with a slash', { ...OPEN, rooms: { 'a/b': 0 } }, false],
    ['an id of 65 characters', { ...OPEN, rooms: { ['x'.repeat(65)]: 0 } }, false],
    ['more people than a call holds', { ...OPEN, rooms: many }, false],
    ['rooms as an array', { ...OPEN, rooms: [0, 1] }, false],
    ['no round', { ...OPEN, round: undefined }, false],
    ['round zero', { ...OPEN, round: 0 }, false],
    ['round as a string', { ...OPEN, round: '1' }, false],
    ['a close now', { t: 'breakout-close', round: 1, seconds: 0 }, true],
    ['a close after a minute', { t: 'breakout-close', round: 1, seconds: 60 }, true],
    ['a close after an hour', { t: 'breakout-close', round: 1, seconds: 3600 }, false],
    ['a message', { t: 'breakout-say', round: 1, text: 'Five minutes left' }, true],
    ['an empty message', { t: 'breakout-say', round: 1, text: '   ' }, false],
    ['a message of 501 characters', { t: 'breakout-say', round: 1, text: 'x'.repeat(501) }, false],
    ['a message that is not text', { t: 'breakout-say', round: 1, text: { toString: 1 } }, false],
    ['a call for help', { t: 'breakout-help', round: 1 }, true],
    ['an unknown kind', { t: 'breakout-move', round: 1 }, false],
    ['null', null, false],
    ['a string', 'breakout-open', false],
  ])('%s', (_, raw, heard) => {
    expect(parseBreakoutMessage(raw) !== null).toBe(heard);
  });
});

describe('splitEvenly and shuffled', () => {
  it.each<[string[], number, Record<string, number>]>([
    [['a', 'b', 'c', 'd'], 2, { a: 0, b: 1, c: 0, d: 1 }],
    [['a', 'b', 'c'], 2, { a: 0, b: 1, c: 0 }],
    [['a', 'b'], 3, { a: 0, b: 1 }],
    [[], 2, {}],
  ])('%j into %i rooms', (ids, count, rooms) => {
    expect(splitEvenly(ids, count)).toEqual(rooms);
  });

  it('room sizes differ by one at most, for every size up to ten rooms', () => {
    for (let people = 1; people <= 30; people++)
      for (let count = 2; count <= 10; count++) {
        const sizes = Array.from({ length: count }, () => 0);
        for (const room of Object.values(
          splitEvenly(
            Array.from({ length: people }, (_, at) => `p${at}`),
            count,
          ),
        ))
          sizes[room]!++;
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }
  });

  it('shuffles a permutation of the same people', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const out = shuffled(['a', 'b', 'c', 'd', 'e'], random);
    expect([...out].sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

const opened: BreakoutState = { ...initialBreakout, round: 1, open: { round: 1, count: 2, rooms: { ada: 0, bob: 1, cy: 0 }, host: 'host' } };
const closing: BreakoutState = { ...opened, closingAt: 31_000 };
const facts = (self: string, fromHost: boolean) => ({ selfId: self, fromHost, selfIsHost: self === 'host', now: 1000 });

describe('reduceBreakout: only the host is obeyed', () => {
  it.each<[string, BreakoutState, BreakoutMessage, string, ReturnType<typeof facts>, (next: BreakoutState) => void]>([
    ['the host opens', initialBreakout, OPEN as BreakoutMessage, 'host', facts('ada', true), (s) => expect(s.open?.rooms).toEqual({ ada: 0, bob: 1 })],
    ['a non-host "move" is ignored', initialBreakout, OPEN as BreakoutMessage, 'bob', facts('ada', false), (s) => expect(s).toBe(initialBreakout)],
    ['a non-host cannot close', opened, { t: 'breakout-close', round: 1, seconds: 0 }, 'bob', facts('ada', false), (s) => expect(s).toBe(opened)],
    ['a non-host cannot speak to all rooms', opened, { t: 'breakout-say', round: 1, text: 'hi' }, 'bob', facts('ada', false), (s) => expect(s).toBe(opened)],
    ['a replayed older round is stale', opened, OPEN as BreakoutMessage, 'host', facts('ada', true), (s) => expect(s).toBe(opened)],
    [
      'a newer round replaces the rooms',
      opened,
      { ...(OPEN as BreakoutMessage), round: 2 } as BreakoutMessage,
      'host',
      facts('ada', true),
      (s) => expect(s.open?.round).toBe(2),
    ],
    ['close now: back to main', opened, { t: 'breakout-close', round: 1, seconds: 0 }, 'host', facts('ada', true), (s) => expect(s.open).toBeNull()],
    [
      'close after 30 s: a countdown',
      opened,
      { t: 'breakout-close', round: 1, seconds: 30 },
      'host',
      facts('ada', true),
      (s) => expect(s.closingAt).toBe(31_000),
    ],
    ['a close of another round', opened, { t: 'breakout-close', round: 9, seconds: 0 }, 'host', facts('ada', true), (s) => expect(s).toBe(opened)],
    [
      'the host speaks',
      opened,
      { t: 'breakout-say', round: 1, text: 'hi' },
      'host',
      facts('ada', true),
      (s) => expect(s.said).toEqual({ text: 'hi', at: 1000 }),
    ],
    [
      'help reaches the host',
      opened,
      { t: 'breakout-help', round: 1 },
      'bob',
      facts('host', false),
      (s) => expect(s.help).toEqual([{ peerId: 'bob', room: 1, at: 1000 }]),
    ],
    ['help to a non-host is ignored', opened, { t: 'breakout-help', round: 1 }, 'bob', facts('ada', false), (s) => expect(s).toBe(opened)],
    ['help from the main room is ignored', opened, { t: 'breakout-help', round: 1 }, 'late', facts('host', false), (s) => expect(s).toBe(opened)],
    ['help of another round is ignored', opened, { t: 'breakout-help', round: 2 }, 'bob', facts('host', false), (s) => expect(s).toBe(opened)],
  ])('%s', (_, state, message, from, f, check) => {
    check(reduceBreakout(state, message, from, f));
  });

  it('back to main ends the rooms and the countdown', () => {
    expect(backToMain(closing)).toMatchObject({ open: null, closingAt: null, round: 1 });
    expect(backToMain(initialBreakout)).toBe(initialBreakout);
  });
});

describe('apart: who reaches whom', () => {
  const open = opened.open;
  it.each<[string, string, boolean]>([
    ['ada', 'cy', false],
    ['ada', 'bob', true],
    ['ada', 'host', true],
    ['host', 'late', false],
    ['bob', 'late', true],
  ])('%s and %s apart: %s', (self, peer, isApart) => {
    expect(apart(open, self, peer)).toBe(isApart);
  });
  it('nobody is apart with no rooms open', () => expect(apart(null, 'ada', 'bob')).toBe(false));
  it('the host and late joiners are in the main room', () => expect([roomOf(open, 'host'), roomOf(open, 'late')]).toEqual([MAIN, MAIN]));
});

describe('BreakoutFeature', () => {
  function page(self: string, hosts: string[]) {
    const sent: [string, unknown][] = [];
    const partitions: ((peerId: string) => boolean)[] = [];
    const ctx: FeatureContext = featureContext({
      selfId: self,
      fileLimit: 0,
      peers: () => ['host', 'ada', 'bob'].filter((id) => id !== self).map((id) => ({ id, name: id })),
      send: (peerId, message) => sent.push([peerId, message]) > 0,
      openChannel: async () => null,
      isHost: (peerId) => hosts.includes(peerId),
      selfIsHost: () => hosts.includes(self),
      setApart: (isApart) => void partitions.push(isApart),
      inAnotherRoom: () => false,
    });
    return { feature: new BreakoutFeature(ctx), sent, partitions };
  }

  it('the host opens: every peer is told and the links are partitioned', () => {
    const host = page('host', ['host']);
    host.feature.open(2, { ada: 0, bob: 1 });
    expect(host.sent.map(([to]) => to)).toEqual(['ada', 'bob']);
    const ada = page('ada', ['host']);
    ada.feature.receive('host', host.sent[0]![1] as { t: string });
    expect(ada.partitions.at(-1)!('bob')).toBe(true);
    expect(ada.partitions.at(-1)!('host')).toBe(true);
  });

  it("a non-host's forged open changes nothing and never throws", () => {
    const ada = page('ada', ['host']);
    for (const raw of [OPEN, { t: 'breakout-open' }, { t: 'breakout-say', round: 1, text: 'x'.repeat(10_000) }])
      ada.feature.receive('bob', raw as { t: string });
    expect(ada.feature.getState()).toBe(initialBreakout);
    expect(ada.partitions).toEqual([]);
  });

  it('a non-host cannot open rooms from its own page either', () => {
    const bob = page('bob', ['host']);
    bob.feature.open(2, { ada: 0, host: 1 });
    expect(bob.sent).toEqual([]);
    expect(bob.feature.getState().open).toBeNull();
  });

  it('the host leaving brings everyone back; a late joiner hears the rooms from the host', () => {
    const host = page('host', ['host']);
    host.feature.open(2, { ada: 0, bob: 1 });
    host.feature.channelOpen('late');
    expect(host.sent.at(-1)).toEqual(['late', { t: 'breakout-open', round: 1, count: 2, rooms: { ada: 0, bob: 1 } }]);
    const ada = page('ada', ['host']);
    ada.feature.receive('host', host.sent[0]![1] as { t: string });
    ada.feature.peerGone('host');
    expect(ada.feature.getState().open).toBeNull();
    expect(ada.partitions.at(-1)!('bob')).toBe(false);
  });
});

describe('the host visits a room (its key epoch through the SFU: tests/unit/e2ee-breakout-keys.test.ts)', () => {
  const opened = reduceBreakout(initialBreakout, OPEN as BreakoutMessage, 'host', { selfId: 'ada', fromHost: true, selfIsHost: false, now: 0 });
  const visit = (room: number, from = 'host', fromHost = true, round = 1) =>
    reduceBreakout(opened, { t: 'breakout-visit', round, room }, from, { selfId: 'ada', fromHost, selfIsHost: false, now: 0 });

  it.each<[string, unknown, boolean]>([
    ['a visit to room 2', { t: 'breakout-visit', round: 1, room: 1 }, true],
    ['back to the main room', { t: 'breakout-visit', round: 1, room: MAIN }, true],
    ['a room below the main room', { t: 'breakout-visit', round: 1, room: -2 }, false],
    ['a room past the largest count', { t: 'breakout-visit', round: 1, room: 10 }, false],
    ['no room', { t: 'breakout-visit', round: 1 }, false],
  ])('%s: heard %s', (_, raw, heard) => expect(parseBreakoutMessage(raw) !== null).toBe(heard));

  it('puts the host in the visited room and back: apart follows', () => {
    const there = visit(0);
    expect(roomOf(there.open, 'host')).toBe(0);
    expect([apart(there.open, 'ada', 'host'), apart(there.open, 'bob', 'host')]).toEqual([false, true]);
    const back = reduceBreakout(there, { t: 'breakout-visit', round: 1, room: MAIN }, 'host', { selfId: 'ada', fromHost: true, selfIsHost: false, now: 0 });
    expect(roomOf(back.open, 'host')).toBe(MAIN);
    expect(apart(back.open, 'ada', 'host')).toBe(true);
  });

  it.each<[string, () => BreakoutState]>([
    ['from a guest', () => visit(0, 'bob', false)],
    ['from a co-host who did not open the rooms', () => visit(0, 'cohost', true)],
    ['of another round', () => visit(0, 'host', true, 2)],
    ['to a room past this round’s count', () => visit(5)],
    ['to where the host already is', () => visit(MAIN)],
  ])('a visit %s changes nothing', (_, next) => expect(next()).toBe(opened));

  it('the host tells a late joiner where it is', () => {
    const sent: [string, unknown][] = [];
    const ctx: FeatureContext = featureContext({
      selfId: 'host',
      fileLimit: 0,
      peers: () => [{ id: 'ada', name: 'ada' }],
      send: (peerId, message) => sent.push([peerId, message]) > 0,
      openChannel: async () => null,
      isHost: () => false,
      selfIsHost: () => true,
      setApart: () => undefined,
      inAnotherRoom: () => false,
    });
    const host = new BreakoutFeature(ctx);
    host.open(2, { ada: 0, bob: 1 });
    host.visit(1);
    host.channelOpen('late');
    expect(sent.slice(-2)).toEqual([
      ['late', { t: 'breakout-open', round: 1, count: 2, rooms: { ada: 0, bob: 1 } }],
      ['late', { t: 'breakout-visit', round: 1, room: 1 }],
    ]);
  });
});
