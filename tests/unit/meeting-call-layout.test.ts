/** @jest-environment node */
import { buildTiles, fitGrid, floatingTile, MIN_TILE_WIDTH, recorders, recordingClock, stageTile, tileLabel } from '@/components/meeting/call/call-layout';
import { initialState, step, type SessionState } from '@/lib/meeting/client/call/machine';
import type { Participant } from '@/lib/meeting/protocol';

// The call screen's layout as plain data: built from a session state the machine made.
const person = (id: string): Participant => ({ id, name: id.toUpperCase(), isHost: id === 'h' });
const LOCAL = { muted: true, cameraOff: false, sharing: false, hand: true, recording: false };
const track = (id: string) => ({ id }) as unknown as MediaStreamTrack;

function callWith(ids: string[], change: (state: SessionState) => SessionState = (s) => s): SessionState {
  let machine = initialState({ self: person('m'), local: LOCAL, camera: track('own-camera'), password: false });
  machine = step(machine, {
    type: 'server',
    event: { type: 'welcome', self: person('m'), participants: [person('m'), ...ids.map(person)], locked: false },
    at: 0,
  }).state;
  return change(machine.view);
}

const withPeer = (id: string, patch: object) => (state: SessionState) => ({
  ...state,
  peers: state.peers.map((peer) => (peer.id === id ? { ...peer, ...patch } : peer)),
});

describe('buildTiles', () => {
  it('self first with our own camera and state, then each peer in order of arrival', () => {
    const tiles = buildTiles(callWith(['h', 'x']), 'Your screen');
    expect(tiles.map((t) => [t.key, t.name, t.isSelf, t.isHost])).toEqual([
      ['m:camera', 'M', true, false],
      ['h:camera', 'H', false, true],
      ['x:camera', 'X', false, false],
    ]);
    expect(tiles[0]).toMatchObject({ track: track('own-camera'), muted: true, hand: true, quality: 'good', speaking: false });
  });

  it('our shared screen is a tile of its own, named for us', () => {
    const tiles = buildTiles(
      callWith([], (s) => ({ ...s, localScreen: track('own-screen') })),
      'Your screen',
    );
    expect(tiles.map((t) => [t.key, t.kind, t.name])).toEqual([
      ['m:camera', 'camera', 'M'],
      ['m:screen', 'screen', 'Your screen'],
    ]);
  });

  it('a peer with the camera off shows no video even if a track arrived; the speaker is marked', () => {
    const state = callWith(['x', 'y'], (s) => ({
      ...withPeer('x', { tracks: { camera: track('x-cam') }, media: { ...LOCAL, muted: false, hand: false, cameraOff: true } })(s),
      activeSpeaker: 'y',
    }));
    const [, x, y] = buildTiles(state, '');
    expect([x!.track, x!.muted, x!.speaking]).toEqual([null, false, false]);
    expect(y!.speaking).toBe(true);
  });

  it('a peer sharing gets a screen tile once its screen track is there, never marked speaking', () => {
    const sharing = { media: { ...LOCAL, sharing: true }, quality: 'poor' };
    const before = buildTiles(callWith(['x'], withPeer('x', sharing)), '');
    expect(before.map((t) => t.key)).toEqual(['m:camera', 'x:camera']);
    const state = callWith(['x'], (s) => ({ ...withPeer('x', { ...sharing, tracks: { screen: track('x-screen') } })(s), activeSpeaker: 'x' }));
    const tiles = buildTiles(state, '');
    expect(tiles.map((t) => [t.key, t.kind, t.speaking, t.quality])).toEqual([
      ['m:camera', 'camera', false, 'good'],
      ['x:camera', 'camera', true, 'poor'],
      ['x:screen', 'screen', false, 'poor'],
    ]);
  });
});

describe('stageTile', () => {
  const state = callWith(['x'], (s) => ({
    ...withPeer('x', { media: { ...LOCAL, sharing: true }, tracks: { screen: track('x-screen') } })(s),
    localScreen: track('own'),
  }));
  const tiles = buildTiles(state, '');

  it.each([
    ['nothing pinned: someone else\u2019s screen, not ours', null, 'x:screen'],
    ['a pinned tile wins', 'm:camera', 'm:camera'],
    ['a pinned tile that is gone: none', 'q:camera', undefined],
  ])('%s', (_name, pinned, key) => {
    expect(stageTile(tiles, pinned)?.key).toBe(key);
  });

  it('nobody shares and nothing pinned: the grid', () => {
    expect(stageTile(buildTiles(callWith(['x']), ''), null)).toBeUndefined();
  });
});

describe('floatingTile (picture-in-picture)', () => {
  it.each([
    [
      'someone else\u2019s shared screen first',
      callWith(['x', 'y'], (s) => ({ ...withPeer('x', { media: { ...LOCAL, sharing: true }, tracks: { screen: track('x-screen') } })(s), activeSpeaker: 'y' })),
      'x:screen',
    ],
    ['else who speaks', callWith(['x', 'y'], (s) => ({ ...s, activeSpeaker: 'y', localScreen: track('own') })), 'y:camera'],
    ['else the first other camera', callWith(['x', 'y']), 'x:camera'],
    ['alone: our own', callWith([]), 'm:camera'],
  ])('%s', (_name, state, key) => {
    expect(floatingTile(buildTiles(state, ''))?.key).toBe(key);
  });
});

describe('the rest of the screen', () => {
  // Issue 33: alone at 1366×768 one full-width tile was taller than the stage and covered Leave.
  it.each([
    // count, stage width × height, columns, tile width
    [1, 1342, 600, 1, 1066],
    [1, 366, 640, 1, 366],
    [2, 1342, 600, 2, 665],
    [2, 366, 640, 1, 366],
    [4, 1342, 600, 2, 522],
    [4, 744, 860, 2, 366],
    [9, 1342, 600, 3, 341],
    // Issue 48: the chat open at 1366×768 (a 958×610 stage): side by side, not one column.
    [2, 958, 610, 2, 473],
    [3, 958, 610, 2, 473],
    // A portrait stage (768 px with the chat open) keeps the larger tiles of one column.
    [2, 424, 850, 1, 424],
  ])('%i tiles on a %i×%i stage: %i columns of %i px, inside the stage', (count, width, height, columns, tileWidth) => {
    const fit = fitGrid(count, width, height, 12);
    expect(fit).toEqual({ columns, tileWidth, scrolls: false });
    const rows = Math.ceil(count / columns);
    expect(rows * ((fit.tileWidth * 9) / 16) + (rows - 1) * 12).toBeLessThanOrEqual(height);
    expect(columns * fit.tileWidth + (columns - 1) * 12).toBeLessThanOrEqual(width);
  });

  it('names our own shared screen "Your screen", not "Your screen\'s screen" (issue 33)', () => {
    const words = { you: (name: string) => `${name} (you)`, screenOf: (name: string) => `${name}'s screen`, screenYours: 'Your screen' };
    const tiles = buildTiles(
      callWith(['x'], (s) => ({
        ...withPeer('x', { media: { ...LOCAL, sharing: true }, tracks: { screen: track('x-screen') } })(s),
        localScreen: track('own-screen'),
      })),
      'Your screen',
    );
    expect(tiles.map((tile) => tileLabel(tile, words))).toEqual(['M (you)', 'Your screen', 'X', "X's screen"]);
  });

  it('thirty people on a phone: tiles of the smallest size, scrolling down', () => {
    expect(fitGrid(30, 366, 600, 12)).toEqual({ columns: 2, tileWidth: 177, scrolls: true });
    expect(fitGrid(30, 366, 600, 12).tileWidth).toBeGreaterThanOrEqual(MIN_TILE_WIDTH);
  });

  it('the recording badge names us first, then the peers who record', () => {
    const state = callWith(['x', 'y'], (s) => ({ ...withPeer('y', { media: { ...LOCAL, recording: true } })(s), local: { ...s.local, recording: true } }));
    expect(recorders(state, 'you')).toEqual(['you', 'Y']);
    expect(recorders(callWith(['x']), 'you')).toEqual([]);
  });

  it.each([
    [0, '0:00'],
    [65, '1:05'],
    [3600 + 2 * 60 + 3, '1:02:03'],
  ])('%i s of recording reads %s', (seconds, text) => expect(recordingClock(seconds)).toBe(text));
});
