'use client';

import { useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import type { Quality } from '@/lib/meeting/client/links/stats';
import { tileLabel, type TileModel } from './call-layout';
import { VideoView } from '../VideoView';
import { HandIcon, MicIcon, PinIcon } from '../icons';

interface TileProps {
  tile: TileModel;
  pinned: boolean;
  large: boolean;
  onPin: () => void;
  onVisible?: (visible: boolean) => void;
  videoRef: (element: HTMLVideoElement | null) => void;
  hostMenu?: React.ReactNode;
  /** The participant's current caption (features/captions/TileCaption.tsx), at the tile's foot. */
  caption?: React.ReactNode;
}

const qualityColor: Record<Quality, string> = {
  good: 'bg-emerald-400',
  fair: 'bg-amber-400',
  poor: 'bg-red-500',
  unknown: 'bg-slate-500',
};

/** One participant's camera or shared screen, with their name and state on top. */
export function Tile({ tile, pinned, large, onPin, onVisible, videoRef, hostMenu, caption }: TileProps) {
  const t = useTranslations('Meeting');
  const ref = useRef<HTMLElement>(null);
  const [showMenu, setShowMenu] = useState(false);

  // Tell the sender whether this tile is on screen: hidden tiles cost them no upload. One
  // observer for the tile's life: the parent passes a new callback on every render, and a new
  // observer each time meant a new intersection check and report per meeting state change.
  const onVisibleNow = useRef(onVisible);
  useEffect(() => {
    onVisibleNow.current = onVisible;
  });
  const observed = Boolean(onVisible);
  useEffect(() => {
    const element = ref.current;
    if (!element || !observed || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => onVisibleNow.current?.(!!entry?.isIntersecting), { threshold: 0.01 });
    observer.observe(element);
    return () => observer.disconnect();
  }, [observed]);

  const label = tileLabel(tile, {
    you: (name) => t('you', { name }),
    screenOf: (name) => t('screenOf', { name }),
    screenYours: t('screenYours'),
  });
  return (
    <figure
      ref={ref}
      aria-label={label}
      data-participant={tile.participantId}
      data-kind={tile.kind}
      data-speaking={tile.speaking || undefined}
      className={`group relative flex min-h-0 items-center justify-center overflow-hidden rounded-xl bg-slate-800 ${
        tile.speaking ? 'ring-4 ring-emerald-400' : ''
      } ${large ? 'h-full' : 'aspect-video'}`}
    >
      {tile.track ? (
        <VideoView
          track={tile.track}
          mirrored={tile.isSelf && tile.kind === 'camera'}
          className={`h-full w-full ${tile.kind === 'screen' ? 'object-contain' : 'object-cover'}`}
          videoRef={videoRef}
        />
      ) : (
        <span aria-hidden="true" className="flex h-20 w-20 items-center justify-center rounded-full bg-slate-600 text-3xl font-semibold text-white">
          {initials(tile.name)}
        </span>
      )}
      {caption}
      <figcaption className="absolute bottom-2 left-2 flex max-w-[85%] items-center gap-1.5 rounded-md bg-black/60 px-2 py-1 text-sm text-white">
        {tile.kind === 'camera' && !tile.isSelf && (
          <span className={`h-2 w-2 shrink-0 rounded-full ${qualityColor[tile.quality]}`} title={t(`quality.${tile.quality}`)}>
            <span className="sr-only">{t(`quality.${tile.quality}`)}</span>
          </span>
        )}
        {tile.kind === 'camera' && tile.muted && <MicIcon off className="h-4 w-4 shrink-0 text-red-400" />}
        <span className="truncate">{label}</span>
        {tile.isHost && tile.kind === 'camera' && <span className="text-xs text-slate-300">({t('host')})</span>}
      </figcaption>
      {tile.hand && tile.kind === 'camera' && (
        <span className="absolute top-2 left-2 rounded-full bg-amber-400 p-1.5 text-slate-900" title={t('handRaised')}>
          <HandIcon className="h-4 w-4" />
          <span className="sr-only">{t('handRaised')}</span>
        </span>
      )}
      <div className="absolute top-2 right-2 flex gap-1 opacity-0 group-focus-within:opacity-100 group-hover:opacity-100">
        <button
          type="button"
          className="rounded-full bg-black/60 p-1.5 text-white"
          aria-pressed={pinned}
          aria-label={pinned ? t('unpin', { name: label }) : t('pin', { name: label })}
          onClick={onPin}
        >
          <PinIcon className="h-4 w-4" />
        </button>
        {hostMenu && (
          <button
            type="button"
            className="rounded-full bg-black/60 px-2 text-white"
            aria-haspopup="menu"
            aria-expanded={showMenu}
            aria-label={t('hostActionsFor', { name: tile.name })}
            onClick={() => setShowMenu(!showMenu)}
          >
            ⋯
          </button>
        )}
      </div>
      {hostMenu && showMenu && (
        <div
          role="menu"
          className="absolute top-10 right-2 z-10 flex flex-col rounded-md bg-white py-1 text-sm text-slate-900 shadow-lg"
          onClick={() => setShowMenu(false)}
        >
          {hostMenu}
        </div>
      )}
    </figure>
  );
}

function initials(name: string) {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join('') || '?'
  );
}
