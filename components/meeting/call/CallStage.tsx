'use client';

import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import type { MeetingSession, RemotePeer, SessionState } from '@/lib/meeting/client/call/session';
import { fitGrid, stageTile, type TileModel } from './call-layout';
import { HostActions } from './HostActions';
import { Tile } from './Tile';
import { ReactionEmoji } from '../ReactionEmoji';

interface CallStageProps {
  session: MeetingSession;
  state: SessionState;
  tiles: TileModel[];
  pinned: string | null;
  onPin: (key: string) => void;
  /** Where each tile's <video> is, for the recorder. */
  videoRef: (key: string, element: HTMLVideoElement | null) => void;
  /** The host chose "Remove" in a tile's menu: the call view asks to confirm. */
  onRemove: (peer: RemotePeer) => void;
  /** Shown above the tiles (the invitation to bring others in, when alone). */
  above?: React.ReactNode;
  /** Below md a side panel takes the whole width: the stage steps aside instead of being squeezed to a sliver (issue 48). */
  hiddenBelowMd?: boolean;
  /** A participant's caption, under their camera's tile (features/captions/), once captions are loaded. */
  captionFor?: (participantId: string) => React.ReactNode;
}

const GAP = 12;

/** The stage's inner size (px), followed as the window or the side panel changes it. */
function useBoxSize() {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight });
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, size] as const;
}

/**
 * The tiles: a grid sized to the stage (fitGrid), or one large (pinned or a shared screen) beside
 * a strip; reactions float over them. The stage is the space between header and toolbar, and
 * nothing in it is drawn outside it: the toolbar never covers a tile, nor a tile the toolbar.
 */
export function CallStage({ session, state, tiles, pinned, onPin, videoRef, onRemove, above, hiddenBelowMd, captionFor }: CallStageProps) {
  const t = useTranslations('Meeting');
  const large = stageTile(tiles, pinned);
  const [box, size] = useBoxSize();
  const fit = fitGrid(tiles.length, size.width, size.height, GAP);
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
        caption={tile.kind === 'camera' ? captionFor?.(tile.participantId) : undefined}
        hostMenu={state.self.isHost && peer && tile.kind === 'camera' ? <HostActions session={session} peer={peer} onRemove={onRemove} inMenu /> : undefined}
      />
    );
  };

  return (
    // min-w-0: tiles of a fixed width must not hold the stage wider than the window when it narrows.
    <main className={`relative min-h-0 min-w-0 flex-1 flex-col p-3 ${hiddenBelowMd ? 'hidden md:flex' : 'flex'}`} aria-label={t('participants')}>
      {above}
      <div ref={box} className={`min-h-0 flex-1 ${large ? '' : fit.scrolls ? 'overflow-y-auto' : 'overflow-hidden'}`}>
        {large ? (
          <div className="flex h-full flex-col gap-3 lg:flex-row">
            <div className="min-h-0 flex-1">{renderTile(large, true)}</div>
            {/* The filmstrip: scrolls sideways on narrow screens, down beside the large tile on wide ones. */}
            <div data-scroll-x className="flex shrink-0 gap-3 overflow-auto lg:w-64 lg:flex-col">
              {tiles
                .filter((tile) => tile.key !== large.key)
                .map((tile) => (
                  <div key={tile.key} className="w-40 shrink-0 sm:w-48 lg:w-full">
                    {renderTile(tile, false)}
                  </div>
                ))}
            </div>
          </div>
        ) : (
          <div className={`flex min-h-full flex-wrap justify-center gap-3 ${fit.scrolls ? 'content-start' : 'content-center'}`}>
            {tiles.map((tile) => (
              // Until the stage is measured (the first layout), a tile takes the stage's width.
              <div key={tile.key} style={fit.tileWidth ? { width: fit.tileWidth } : undefined} className={fit.tileWidth ? 'shrink-0' : 'w-full max-w-xl'}>
                {renderTile(tile, false)}
              </div>
            ))}
          </div>
        )}
      </div>
      <ul aria-live="polite" className="pointer-events-none absolute bottom-4 left-4 space-y-1">
        {state.reactions.map((reaction) => (
          <li key={reaction.id} className="flex items-center gap-2 rounded-full bg-black/60 px-3 py-1 text-sm">
            <ReactionEmoji emoji={reaction.emoji} size={28} label={reaction.emoji} /> {reaction.from === state.self.id ? t('youShort') : reaction.name}
          </li>
        ))}
      </ul>
    </main>
  );
}
