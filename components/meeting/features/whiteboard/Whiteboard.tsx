'use client';

import { useCallback, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslations } from 'next-intl';
import { ConfirmDialog } from '@/components/dialog/ConfirmDialog';
import { PALETTE, WIDTHS } from '@/lib/meeting/client/whiteboard/board-model';
import type { WhiteboardSync } from '@/lib/meeting/client/whiteboard/board-sync';
import { BoardCanvas, type Tool } from './BoardCanvas';
import { boardSvg } from './board-svg';

/** The tools in the order the toolbar shows them (messages: Whiteboard.<name>). */
const TOOLS = ['pen', 'line', 'arrow', 'rect', 'ellipse', 'text', 'eraser'] as const satisfies readonly Tool[];

/** Hands a file made on this device to the browser's download (nothing goes to the server). */
function download(blob: Blob, name: string) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Names of PALETTE's and WIDTHS's entries, in their order (messages: Whiteboard.colours, Whiteboard.widths). */
const COLOUR_NAMES = ['black', 'red', 'blue', 'green', 'orange', 'purple'] as const;
const WIDTH_NAMES = ['thin', 'medium', 'thick'] as const;

const button =
  'inline-flex h-9 shrink-0 items-center rounded-md px-2.5 text-sm font-medium text-white hover:bg-slate-600 focus-visible:outline-2 focus-visible:outline-sky-400 disabled:opacity-40 disabled:hover:bg-transparent';
const choice = 'peer sr-only';
const chosen =
  'peer-checked:ring-2 peer-checked:ring-sky-400 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-sky-400';

/**
 * The shared whiteboard, in the call's stage (docs/meetings.md "Whiteboard"): the tools in one
 * labelled toolbar — pen, line, arrow, rectangle, ellipse, text or eraser; colour and width (a
 * text's size) as radio groups (arrow keys move); undo; clear (the host only, asked first); save
 * as PNG or SVG; close — and the board under them. Loaded on first use.
 */
export default function Whiteboard({ sync, onClose }: { sync: WhiteboardSync; onClose: () => void }) {
  const t = useTranslations('Whiteboard');
  const [tool, setTool] = useState<Tool>('pen');
  const [colour, setColour] = useState(0);
  const [width, setWidth] = useState(1);
  const [confirmClear, setConfirmClear] = useState(false);
  const [full, setFull] = useState(false);
  const canvas = useRef<HTMLCanvasElement>(null);
  const version = useSyncExternalStore(sync.subscribe, () => sync.board.version);
  const count = sync.board.size;
  // Read at each change (version): whether one of my strokes is still there to take back.
  const canUndo = version >= 0 && sync.canUndo();

  const save = useCallback(() => {
    canvas.current?.toBlob((blob) => blob && download(blob, `${t('fileName')}.png`), 'image/png');
  }, [t]);
  const saveSvg = useCallback(() => download(new Blob([boardSvg(sync.board.visible())], { type: 'image/svg+xml' }), `${t('fileName')}.svg`), [sync, t]);

  return (
    <section aria-label={t('title')} className="flex min-h-0 min-w-0 flex-1 flex-col gap-2 p-3" data-whiteboard>
      <div role="toolbar" aria-label={t('tools')} className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-xl bg-slate-700 px-2 py-1.5">
        <div role="group" aria-label={t('tool')} className="flex flex-wrap gap-1">
          {TOOLS.map((name) => (
            <button
              key={name}
              type="button"
              aria-pressed={tool === name}
              className={`${button} ${tool === name ? 'bg-slate-500' : ''}`}
              onClick={() => setTool(name)}
            >
              {t(name)}
            </button>
          ))}
        </div>
        <fieldset className="flex items-center gap-1.5">
          <legend className="sr-only">{t('colour')}</legend>
          {PALETTE.map((value, index) => (
            <label key={value} title={t(`colours.${COLOUR_NAMES[index]!}`)} className="relative flex">
              <input
                type="radio"
                name="whiteboard-colour"
                className={choice}
                checked={colour === index}
                onChange={() => {
                  setColour(index);
                  if (tool === 'eraser') setTool('pen');
                }}
              />
              <span className="sr-only">{t(`colours.${COLOUR_NAMES[index]!}`)}</span>
              <span aria-hidden="true" className={`h-6 w-6 rounded-full border-2 border-white/70 ${chosen}`} style={{ background: value }} />
            </label>
          ))}
        </fieldset>
        <fieldset className="flex items-center gap-1">
          <legend className="sr-only">{t('width')}</legend>
          {WIDTHS.map((value, index) => (
            <label key={value} title={t(`widths.${WIDTH_NAMES[index]!}`)} className="relative flex">
              <input type="radio" name="whiteboard-width" className={choice} checked={width === index} onChange={() => setWidth(index)} />
              <span className="sr-only">{t(`widths.${WIDTH_NAMES[index]!}`)}</span>
              <span aria-hidden="true" className={`flex h-7 w-7 items-center justify-center rounded-md bg-slate-600 ${chosen}`}>
                <span className="rounded-full bg-white" style={{ width: 4 + index * 5, height: 4 + index * 5 }} />
              </span>
            </label>
          ))}
        </fieldset>
        <div className="flex flex-wrap gap-1">
          <button type="button" className={button} disabled={!canUndo} onClick={() => sync.undo()}>
            {t('undo')}
          </button>
          {sync.canClear() && (
            <button type="button" className={button} disabled={count === 0} onClick={() => setConfirmClear(true)}>
              {t('clear')}
            </button>
          )}
          <button type="button" className={button} onClick={save}>
            {t('export')}
          </button>
          <button type="button" className={button} onClick={saveSvg}>
            {t('exportSvg')}
          </button>
          <button type="button" className={`${button} bg-slate-600`} onClick={onClose}>
            {t('close')}
          </button>
        </div>
      </div>
      <p role="status" className="sr-only">
        {t('strokes', { count })}
      </p>
      {full && (
        <p role="alert" className="rounded-md bg-amber-100 px-3 py-1.5 text-sm text-amber-900">
          {t('full')}
        </p>
      )}
      <BoardCanvas
        sync={sync}
        tool={tool}
        colour={colour}
        width={width}
        textSize={width}
        label={t('canvas')}
        textLabel={t('textInput')}
        canvasRef={canvas}
        onFull={() => setFull(true)}
      />
      {confirmClear && (
        <ConfirmDialog
          title={t('clearTitle')}
          message={t('clearMessage')}
          confirmLabel={t('clearConfirm')}
          onConfirm={async () => {
            sync.clear();
            setFull(false);
            setConfirmClear(false);
          }}
          onClose={() => setConfirmClear(false)}
        />
      )}
    </section>
  );
}
