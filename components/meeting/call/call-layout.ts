// What the call screen shows, worked out from the session state without React: the tiles in
// order, which one takes the stage, the grid, who records. Tested in Node (meeting-call-layout.test.ts).
import type { SessionState } from '@/lib/meeting/client/call/session';
import type { Quality } from '@/lib/meeting/client/links/stats';

/** Self first, then everyone in order of arrival; shared screens as tiles of their own. */
/** One tile of the call: a participant's camera or shared screen, as the stage draws it (Tile.tsx). */
export interface TileModel {
  key: string;
  participantId: string;
  name: string;
  kind: 'camera' | 'screen';
  track: MediaStreamTrack | null;
  isSelf: boolean;
  isHost: boolean;
  muted: boolean;
  hand: boolean;
  quality: Quality;
  speaking: boolean;
}

export function buildTiles(state: SessionState, screenYours: string): TileModel[] {
  const self: TileModel = {
    key: `${state.self.id}:camera`,
    participantId: state.self.id,
    name: state.self.name,
    kind: 'camera',
    track: state.localCamera,
    isSelf: true,
    isHost: state.self.isHost,
    muted: state.local.muted,
    hand: state.local.hand,
    quality: 'good',
    speaking: false,
  };
  const tiles: TileModel[] = [self];
  if (state.localScreen) tiles.push({ ...self, key: `${state.self.id}:screen`, kind: 'screen', name: screenYours, track: state.localScreen });
  for (const peer of state.peers) {
    const camera: TileModel = {
      key: `${peer.id}:camera`,
      participantId: peer.id,
      name: peer.name,
      kind: 'camera',
      track: peer.media.cameraOff ? null : (peer.tracks.camera ?? null),
      isSelf: false,
      isHost: peer.isHost,
      muted: peer.media.muted,
      hand: peer.media.hand,
      quality: peer.quality,
      speaking: state.activeSpeaker === peer.id,
    };
    tiles.push(camera);
    if (peer.media.sharing && peer.tracks.screen)
      tiles.push({ ...camera, key: `${peer.id}:screen`, kind: 'screen', track: peer.tracks.screen, speaking: false });
  }
  return tiles;
}

/** The pinned tile, else someone else's shared screen: shown large, the rest in a strip. */
export function stageTile(tiles: TileModel[], pinned: string | null): TileModel | undefined {
  return pinned ? tiles.find((tile) => tile.key === pinned) : tiles.find((tile) => tile.kind === 'screen' && !tile.isSelf);
}

/** The smallest tile worth showing (px wide): below it the grid keeps this size and scrolls. */
export const MIN_TILE_WIDTH = 160;

export interface GridFit {
  columns: number;
  /** Each tile's width in px; its height follows from 16:9. */
  tileWidth: number;
  /** The tiles do not fit the stage even at MIN_TILE_WIDTH: the stage scrolls down. */
  scrolls: boolean;
}

/**
 * The grid of `count` 16:9 tiles that fits a stage of `width` × `height` px with the largest
 * tiles: every column count is tried, each limited by the width and by the height its rows need.
 * The tiles never grow past the stage, so they never reach under the toolbar (issue 33: alone
 * on a wide screen, one full-width tile was taller than the stage and covered Leave).
 */
export function fitGrid(count: number, width: number, height: number, gap: number): GridFit {
  const n = Math.max(1, count);
  const fits: GridFit[] = [];
  let best: GridFit = { columns: 1, tileWidth: 0, scrolls: false };
  for (let columns = 1; columns <= n; columns++) {
    const rows = Math.ceil(n / columns);
    const byWidth = (width - gap * (columns - 1)) / columns;
    const byHeight = ((height - gap * (rows - 1)) / rows) * (16 / 9);
    const tileWidth = Math.floor(Math.min(byWidth, byHeight));
    fits.push({ columns, tileWidth, scrolls: false });
    // On a tie the squarer grid (more columns) wins: two by two rather than four in a column.
    if (tileWidth >= best.tileWidth) best = { columns, tileWidth, scrolls: false };
  }
  // A stage wider than tall takes fewer rows for tiles a little smaller (at most 15 %): with the
  // chat open at 1366 px, two people stood in one column with empty sides (issue 48).
  if (width > height) {
    const rowsOf = (fit: GridFit) => Math.ceil(n / fit.columns);
    const largest = best.tileWidth;
    for (const fit of fits) {
      if (fit.tileWidth >= MIN_TILE_WIDTH && fit.tileWidth >= largest * 0.85 && rowsOf(fit) < rowsOf(best)) best = fit;
    }
  }
  if (best.tileWidth >= MIN_TILE_WIDTH || width <= 0) return best;
  // Too many for the stage: as many columns of the smallest size as the width holds, scrolling.
  const columns = Math.max(1, Math.min(n, Math.floor((width + gap) / (MIN_TILE_WIDTH + gap))));
  return { columns, tileWidth: Math.floor((width - gap * (columns - 1)) / columns), scrolls: true };
}

/** A tile's name for people and screen readers: "Your screen" for our own shared screen. */
export function tileLabel(
  tile: Pick<TileModel, 'kind' | 'isSelf' | 'name'>,
  words: { you: (name: string) => string; screenOf: (name: string) => string; screenYours: string },
): string {
  if (tile.kind === 'screen') return tile.isSelf ? words.screenYours : words.screenOf(tile.name);
  return tile.isSelf ? words.you(tile.name) : tile.name;
}

/** Everyone recording, we first (as `you`): the badge names them all. */
export function recorders(state: SessionState, you: string): string[] {
  return [...(state.local.recording ? [you] : []), ...state.peers.filter((peer) => peer.media.recording).map((peer) => peer.name)];
}

/** The recording timer: m:ss, or h:mm:ss from an hour on. */
export function recordingClock(seconds: number) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = String(m).padStart(h ? 2 : 1, '0');
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** What picture-in-picture floats: someone's shared screen, else who speaks, else the first other camera, else ours. */
export function floatingTile(tiles: TileModel[]): TileModel | undefined {
  return (
    tiles.find((tile) => tile.kind === 'screen' && !tile.isSelf) ??
    tiles.find((tile) => tile.speaking) ??
    tiles.find((tile) => !tile.isSelf && tile.kind === 'camera') ??
    tiles[0]
  );
}
