'use client';

import { useEffect, useSyncExternalStore } from 'react';
import { useTranslations } from 'next-intl';
import {
  noiseSuppressionOn,
  noiseSuppressionSupported,
  serverNoiseSuppression,
  subscribeNoiseSuppression,
} from '@/lib/meeting/client/media/noise-suppression-preference';
import type { NoiseSuppressor } from '@/lib/meeting/client/media/noise-suppression';
import type { MeetingSession } from '@/lib/meeting/client/call/session';

/**
 * While the toggle is on, the links send the microphone through RNNoise (noise-suppression.ts,
 * imported here only once the call runs, so the call's first load does not carry it). The
 * capture (`microphone`, from useCallDevices) stays what the device choice and the fallback
 * watch; the filtered track is what the session sends, mutes and records.
 */
export function useNoiseSuppression(session: MeetingSession, microphone: MediaStreamTrack | null, ended: boolean, notify: (message: string) => void) {
  const t = useTranslations('Meeting.noise');
  const on = useSyncExternalStore(subscribeNoiseSuppression, noiseSuppressionOn, serverNoiseSuppression);

  useEffect(() => {
    if (!on || !microphone || ended || !noiseSuppressionSupported()) return;
    const abort = new AbortController();
    const cancelled = () => abort.signal.aborted;
    let suppressor: NoiseSuppressor | null = null;
    void import('@/lib/meeting/client/media/noise-suppression')
      .then(({ suppressNoise }) => suppressNoise(microphone, abort.signal))
      .then(async (made) => {
        // Turned off, another microphone, or the call ended while the filter loaded.
        if (cancelled() || session.localTrack('audio') !== microphone) return made.stop();
        suppressor = made;
        await session.replaceMicrophone(made.track);
        // Mute now acts on the filtered track; the capture feeding it must keep sounding, also
        // when the person joined muted (the lobby disabled it). Only after the swap, so that a
        // muted capture is never sent enabled.
        microphone.enabled = true;
      })
      .catch(() => {
        // No AudioWorklet, a wasm the browser refuses: the microphone goes out unfiltered, as
        // before, and the person is told.
        if (!cancelled()) notify(t('failed'));
      });
    return () => {
      abort.abort();
      const made = suppressor;
      if (!made) return;
      if (session.localTrack('audio') === made.track && made.track.readyState === 'live') {
        // Turned off mid-call: the capture itself goes back on the links, with the mute state.
        void session.replaceMicrophone(microphone).finally(() => made.stop());
      } else {
        // The session let go of the filtered track (another microphone, the call's end; it
        // stopped it): the capture behind it goes with it, as the capture itself would have.
        made.stop();
        microphone.stop();
      }
    };
  }, [on, microphone, ended, session, notify, t]);
}
