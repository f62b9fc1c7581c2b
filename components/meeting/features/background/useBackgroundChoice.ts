'use client';

import { useCallback, useState } from 'react';
import type { BackgroundChoice } from '@/lib/meeting/client/background/choice';

/**
 * The background dialog's state and what a choice does to the camera now shown (or sent):
 * `replace` swaps the new track in (the lobby's preview, or the session's senders), then the old
 * effect stops. With the camera off, the choice is only remembered and used when it comes on.
 */
export function useBackgroundChoice(camera: MediaStreamTrack | null, replace: (track: MediaStreamTrack) => void | Promise<void>) {
  const [isOpen, setOpen] = useState(false);
  const choose = useCallback(
    async (choice: BackgroundChoice) => {
      if (!camera) return;
      // The code that applies an effect loads with the first choice, not with the lobby.
      const { changeBackground } = await import('@/lib/meeting/client/background/apply');
      const { track, release } = await changeBackground(camera, choice);
      if (track !== camera) await replace(track);
      release();
    },
    [camera, replace],
  );
  return { isOpen, open: useCallback(() => setOpen(true), []), close: useCallback(() => setOpen(false), []), choose };
}
