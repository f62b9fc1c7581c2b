'use client';

// Rendered into the Document Picture-in-Picture window through a portal; loaded when first opened.
import { useTranslations } from 'next-intl';
import { tileLabel } from './call-layout';
import type { TileModel } from './call-layout';
import { VideoView } from '../VideoView';
import { LeaveIcon, MicIcon } from '../icons';

interface PipViewProps {
  tile: TileModel | undefined;
  muted: boolean;
  onMute: () => void;
  onLeave: () => void;
}

/** The floating call: who speaks (or the shared screen), and the two controls that matter away from the tab. */
export default function PipView({ tile, muted, onMute, onLeave }: PipViewProps) {
  const t = useTranslations('Meeting');
  const label = tile ? tileLabel(tile, { you: (name) => t('you', { name }), screenOf: (name) => t('screenOf', { name }), screenYours: t('screenYours') }) : '';
  return (
    <div className="flex h-dvh flex-col bg-slate-900 text-white">
      <figure aria-label={label} className="relative min-h-0 flex-1">
        {tile?.track ? (
          <VideoView
            track={tile.track}
            mirrored={tile.isSelf && tile.kind === 'camera'}
            className={`h-full w-full ${tile.kind === 'screen' ? 'object-contain' : 'object-cover'}`}
          />
        ) : (
          <p className="flex h-full items-center justify-center text-slate-300">{t('pip.noVideo')}</p>
        )}
        {label && <figcaption className="absolute bottom-2 left-2 rounded-md bg-black/60 px-2 py-1 text-sm">{label}</figcaption>}
      </figure>
      <nav aria-label={t('controls')} className="flex justify-center gap-2 p-2">
        <button
          type="button"
          className={`toolbar-button ${muted ? 'toolbar-button-off' : ''}`}
          aria-pressed={muted}
          aria-label={muted ? t('unmuteMicrophone') : t('muteMicrophone')}
          onClick={onMute}
        >
          <MicIcon off={muted} />
        </button>
        <button type="button" aria-label={t('leave')} className="inline-flex h-12 items-center rounded-full bg-red-600 px-4 hover:bg-red-700" onClick={onLeave}>
          <LeaveIcon />
        </button>
      </nav>
    </div>
  );
}
