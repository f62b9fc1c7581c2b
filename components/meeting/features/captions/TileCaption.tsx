'use client';

import { useSyncExternalStore } from 'react';
import type { Captions } from '@/lib/meeting/client/captions/captions';

/** Characters shown at once: the end of a long line, as subtitles show what is being said now. */
const SHOWN = 140;

/**
 * One speaker's current caption, at the foot of their tile (components/meeting/call/Tile.tsx),
 * in the speaker's language; nothing when this viewer turned captions off. Loaded with the captions.
 */
export default function TileCaption({ captions, participantId }: { captions: Captions; participantId: string }) {
  const view = useSyncExternalStore(captions.subscribe, captions.getSnapshot, captions.getSnapshot);
  const line = view.show ? view.live[participantId] : undefined;
  if (!line) return null;
  const characters = Array.from(line.text);
  const text = characters.length > SHOWN ? `…${characters.slice(-SHOWN).join('')}` : line.text;
  return (
    <p
      data-testid="caption"
      lang={line.lang}
      className="pointer-events-none absolute inset-x-2 bottom-11 z-[1] mx-auto w-fit max-w-full rounded-md bg-black/75 px-2 py-1 text-center text-xs leading-snug break-words text-white sm:text-sm"
    >
      {text}
    </p>
  );
}
