/** @jest-environment node */
import { BATCH_MS, WhiteboardSync } from '@/lib/meeting/client/whiteboard/board-sync';
import { WhiteboardFeature } from '@/lib/meeting/client/whiteboard/whiteboard-feature';
import { CallFeatures } from '@/lib/meeting/client/call/features';
import type { WhiteboardMessage } from '@/lib/meeting/client/whiteboard/board-messages';
import { fanOut, featureContext } from '../support/feature-context';

/** The host hooks the call gives every feature (call/features.ts); the board does not use them. */
const noHost = { isHost: () => false, selfIsHost: () => false, setApart: () => undefined, inAnotherRoom: () => false };

// Pages drawing on one whiteboard (docs/meetings.md "Whiteboard"), wired by an in-memory network
// in place of the sealed channels: strokes stream in batches while drawn, everyone ends with the
// same board, a late joiner gets it from a peer, undo and clear travel like any stroke.

jest.useFakeTimers();

/** Pages that can reach each other; `wire` lists what went over the network. The roster's host is `host`. */
function network(host = 'ada') {
  const pages = new Map<string, WhiteboardSync>();
  const wire: { from: string; to: string; message: WhiteboardMessage }[] = [];
  const join = (id: string) => {
    const sync = new WhiteboardSync(
      fanOut({
        selfId: id,
        peers: () => [...pages.keys()].filter((other) => other !== id).map((other) => ({ id: other })),
        send: (to, message) => {
          wire.push({ from: id, to, message });
          pages.get(to)?.receive(id, JSON.parse(JSON.stringify(message)));
          return true;
        },
        isHost: (peerId) => peerId === host,
        selfIsHost: () => id === host,
      }),
    );
    pages.set(id, sync);
    return sync;
  };
  return { join, wire, pages };
}

const board = (sync: WhiteboardSync) => sync.view().strokes.map(({ id, points }) => `${id}:${points}`);

describe('whiteboard sync', () => {
  it('a stroke streams in batches while drawn, so the other page sees the line grow', () => {
    const { join, wire } = network();
    const ada = join('ada');
    const bob = join('bob');
    ada.begin(100, 100, 1, 1);
    for (let i = 1; i <= 4; i++) ada.extend(100 + i, 100);
    expect(bob.view().strokes).toEqual([]);
    jest.advanceTimersByTime(BATCH_MS);
    expect(bob.view().strokes.map((s) => s.points)).toEqual([5]);
    ada.extend(200, 200);
    jest.advanceTimersByTime(BATCH_MS);
    expect(bob.view().strokes.map((s) => s.points)).toEqual([6]);
    ada.end();
    expect(wire.map((w) => w.message.t)).toEqual(['wb-seg', 'wb-seg', 'wb-end']);
    expect(board(bob)).toEqual(board(ada));
  });

  it('two pages drawing at once end with the same board; a late joiner gets it from a peer', () => {
    const { join, pages } = network();
    const ada = join('ada');
    const bob = join('bob');
    ada.begin(0, 0, 0, 0);
    bob.begin(9000, 9000, 2, 2);
    for (let i = 1; i < 30; i++) {
      ada.extend(i * 10, i * 10);
      bob.extend(9000 - i * 10, 9000);
      if (i % 7 === 0) jest.advanceTimersByTime(BATCH_MS);
    }
    ada.end();
    bob.end();
    expect(board(ada)).toHaveLength(2);
    expect(board(bob)).toEqual(board(ada));
    const carol = join('carol');
    for (const id of ['ada', 'bob']) pages.get(id)!.channelOpen('carol');
    expect(board(carol)).toEqual(board(ada));
  });

  it('undo takes back only one’s own last stroke, everywhere; clear empties every board', () => {
    const { join } = network();
    const ada = join('ada');
    const bob = join('bob');
    const draw = (sync: WhiteboardSync, x: number) => {
      sync.begin(x, x, 0, 0);
      sync.extend(x + 1, x + 1);
      sync.end();
    };
    draw(ada, 1);
    draw(bob, 2);
    draw(ada, 3);
    expect(bob.undo()).toBe(true);
    jest.advanceTimersByTime(BATCH_MS);
    expect(ada.view().strokes.map((s) => s.author)).toEqual(['ada', 'ada']);
    expect(bob.undo()).toBe(false);
    expect(bob.canUndo()).toBe(false);
    ada.clear();
    expect(board(ada)).toEqual([]);
    expect(board(bob)).toEqual([]);
    draw(bob, 4);
    expect(board(ada)).toHaveLength(1);
  });

  it('the eraser’s removals reach the others with the next batch', () => {
    const { join } = network();
    const ada = join('ada');
    const bob = join('bob');
    ada.begin(5, 5, 0, 0);
    ada.end();
    const [id] = bob.view().strokes.map((s) => s.id);
    bob.erase([id!, 'nobody#1']);
    expect(ada.view().strokes).toHaveLength(1);
    jest.advanceTimersByTime(BATCH_MS);
    expect(ada.view().strokes).toEqual([]);
  });

  it('the call hears of a peer’s change to the board, not of a repeat, a refusal or its own drawing', () => {
    const heard: string[] = [];
    const sync = new WhiteboardSync(fanOut({ ...noHost, selfId: 'bob', peers: () => [], send: () => true, peerChanged: (peerId) => heard.push(peerId) }));
    const stroke = { t: 'wb-end', n: 1, c: 0, w: 0, p: [1, 1] };
    sync.receive('ada', stroke);
    sync.receive('ada', stroke);
    sync.receive('eve', { ...stroke, c: 99 });
    sync.begin(5, 5, 0, 0);
    sync.end();
    expect(heard).toEqual(['ada']);
  });

  it('hostile messages are counted and dropped; the board stays as it was', () => {
    const { join } = network();
    const ada = join('ada');
    ada.receive('mallory', { t: 'wb-end', n: 1, c: 0, w: 0, p: [0, 0] });
    for (const raw of [null, { t: 'wb-end', n: 1, c: 0, w: 0, p: [1e9, 0] }, { t: 'wb-snap', s: 'x' }, { t: 'wb-del', ids: [{}] }]) ada.receive('mallory', raw);
    expect(ada.view()).toEqual({ strokes: [{ id: 'mallory#1', author: 'mallory', colour: 0, width: 0, points: 1 }], refused: 4 });
  });

  it('the feature loads the board on the first message and hands it what came, in order', async () => {
    const sent: unknown[] = [];
    const features = new CallFeatures(
      featureContext({ ...noHost, selfId: 'bob', fileLimit: 0, peers: () => [], send: (_, m) => sent.push(m) > 0, openChannel: async () => null }),
    );
    const feature = new WhiteboardFeature(
      featureContext({ ...noHost, selfId: 'bob', fileLimit: 0, peers: () => [], send: () => true, openChannel: async () => null }),
    );
    features.register(feature);
    expect(features.receive('ada', { t: 'wb-seg', n: 1, c: 0, w: 0, at: 0, p: [1, 1] })).toBe(true);
    expect(features.receive('ada', { t: 'wb-seg', n: 1, c: 0, w: 0, at: 1, p: [2, 2] })).toBe(true);
    const sync = await feature.load();
    await Promise.resolve();
    expect(sync.view().strokes).toEqual([{ id: 'ada#1', author: 'ada', colour: 0, width: 0, points: 2 }]);
  });

  it('shapes and texts travel whole, undo like strokes, and a late joiner gets them', () => {
    const { join } = network();
    const [ada, bob] = [join('ada'), join('bob')];
    expect(ada.place('rect', [100, 100, 900, 700], 2, 1)).toBe(true);
    expect(ada.place('text', [500, 500], 1, 2, 'Hello, board')).toBe(true);
    expect(bob.view().strokes.map(({ kind, text, points }) => [kind, text, points])).toEqual([
      ['rect', undefined, 2],
      ['text', 'Hello, board', 1],
    ]);
    const carol = join('carol');
    ada.channelOpen('carol');
    expect(carol.view().strokes).toEqual(ada.view().strokes);
    expect(ada.undo()).toBe(true);
    jest.advanceTimersByTime(BATCH_MS);
    expect([bob, carol].map((page) => page.view().strokes.map((s) => s.kind))).toEqual([['rect'], ['rect']]);
  });

  it('only the host clears: a guest cannot, and a guest’s clear (or a clear in its snapshot) is refused', () => {
    const { join } = network('ada');
    const [ada, bob] = [join('ada'), join('bob')];
    ada.place('line', [0, 0, 10_000, 10_000], 0, 0);
    expect(bob.canClear()).toBe(false);
    bob.clear();
    expect(ada.view().strokes).toHaveLength(1);
    const upTo = { ada: Number.MAX_SAFE_INTEGER };
    ada.receive('bob', { t: 'wb-clear', upTo });
    ada.receive('bob', { t: 'wb-snap', s: [], d: [], upTo });
    expect(ada.view()).toMatchObject({ refused: 1, strokes: [{ kind: 'line' }] });
    expect(ada.canClear()).toBe(true);
    ada.clear();
    expect(bob.view().strokes).toEqual([]);
  });
});
