// What the call screen shows, worked out from the session state without React: the tiles in
// order, which one takes the stage, the grid, who records. Tested in Node (meeting-call-layout.test.ts).
import type { SessionState } from '@/lib/meeting/client/session';
import type { TileModel } from './Tile';

/** Self first, then everyone in order of arrival; shared screens as tiles of their own. */
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
    if (peer.media.sharing && peer.tracks.screen) tiles.push({ ...camera, key: `${peer.id}:screen`, kind: 'screen', track: peer.tracks.screen, speaking: false });
  }
  return tiles;
}

/** The pinned tile, else someone else's shared screen: shown large, the rest in a strip. */
export function stageTile(tiles: TileModel[], pinned: string | null): TileModel | undefined {
  return pinned ? tiles.find((tile) => tile.key === pinned) : tiles.find((tile) => tile.kind === 'screen' && !tile.isSelf);
}

export function gridColumns(count: number) {
  if (count <= 1) return 'grid-cols-1';
  if (count <= 4) return 'grid-cols-1 sm:grid-cols-2';
  if (count <= 9) return 'grid-cols-2 md:grid-cols-3';
  if (count <= 16) return 'grid-cols-3 lg:grid-cols-4';
  return 'grid-cols-4 lg:grid-cols-6';
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
