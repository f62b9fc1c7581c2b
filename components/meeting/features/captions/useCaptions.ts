'use client';

import { useCallback, useEffect, useState } from 'react';
import { useLocale } from 'next-intl';
import type { MeetingSession } from '@/lib/meeting/client/call/session';
import type { Captions } from '@/lib/meeting/client/captions/captions';
import { CAPTIONS } from '@/lib/meeting/client/captions/captions-feature';
import { speechLanguage } from '@/lib/meeting/client/captions/languages';

/**
 * The call's captions as the call view holds them: loaded the first time "Captions" opens or a
 * caption arrives (lib/meeting/client/captions/captions-feature.ts), and the dialog open or not.
 */
export function useCaptions(session: MeetingSession) {
  const locale = useLocale();
  const [captions, setCaptions] = useState<Captions | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const feature = session.features.use(CAPTIONS);
    // Our side as the session has it when asked: the microphone it sends, muted or not.
    feature.setLocal({ microphone: () => session.localTrack('audio'), muted: () => session.getState().local.muted, language: speechLanguage(locale) });
    return feature.onLoaded(setCaptions);
  }, [session, locale]);
  const show = useCallback(
    () =>
      void session.features
        .use(CAPTIONS)
        .load()
        .then(() => setOpen(true)),
    [session],
  );
  const close = useCallback(() => setOpen(false), []);
  return { captions, open, show, close };
}
