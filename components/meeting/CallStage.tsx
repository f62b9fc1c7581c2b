'use client';

import { useTranslations } from 'next-intl';
import type { MeetingSession, SessionState } from '@/lib/meeting/client/session';
import { gridColumns, stageTile } from './call-layout';
import { HostActions } from './HostActions';
import { Tile, type TileModel } from './Tile';

interface CallStageProps {
  session: MeetingSession;
  state: SessionState;
  tiles: TileModel[];
  pinned: string | null;
  onPin: (key: string) => void;
  /** Where each tile's <video> is, for the recorder. */
  videoRef: (key: string, element: HTMLVideoElement | null) => void;
}

/** The tiles: a grid, or one large (pinned or a shared screen) beside a strip; reactions float over them. */
export function CallStage({ session, state, tiles, pinned, onPin, videoRef }: CallStageProps) {
  const t = useTranslations('Meeting');
  const large = stageTile(tiles, pinned);
  const renderTile = (tile: TileModel, isLarge: boolean) => {
    const peer = tile.isSelf ? null : state.peers.find((p) => p.id === tile.participantId);
    return (
      <Tile
        key={tile.key}
        tile={tile}
        large={isLarge}
        pinned={pinned === tile.key}
        onPin={() => onPin(tile.key)}
        onVisible={!tile.isSelf && tile.kind === 'camera' ? (visible) => session.setPeerVisible(tile.participantId, visible) : undefined}
        videoRef={(element) => videoRef(tile.key, element)}
        hostMenu={state.self.isHost && peer && tile.kind === 'camera' ? <HostActions session={session} peer={peer} inMenu /> : undefined}
      />
    );
  };

  return (
    <main className="relative min-h-0 flex-1 p-3" aria-label={t('participants')}>
      {large ? (
        <div className="flex h-full flex-col gap-3 lg:flex-row">
          <div className="min-h-0 flex-1">{renderTile(large, true)}</div>
          <div className="flex gap-3 overflow-auto lg:w-64 lg:flex-col">
            {tiles.filter((tile) => tile.key !== large.key).map((tile) => (
              <div key={tile.key} className="w-48 shrink-0 lg:w-full">
                {renderTile(tile, false)}
              </div>
            ))}
          </div>
        </div>
      ) : (
        <div className={`grid h-full content-center gap-3 ${gridColumns(tiles.length)}`}>{tiles.map((tile) => renderTile(tile, false))}</div>
      )}
      <ul aria-live="polite" className="pointer-events-none absolute bottom-4 left-4 space-y-1">
        {state.reactions.map((reaction) => (
          <li key={reaction.id} className="rounded-full bg-black/60 px-3 py-1 text-sm">
            <span className="text-2xl">{reaction.emoji}</span> {reaction.from === state.self.id ? t('youShort') : reaction.name}
          </li>
        ))}
      </ul>
    </main>
  );
}
