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
 * While the toggle is on, the microphone's processor (track-processor.ts) is RNNoise
 * (noise-suppression.ts, imported here only once the call runs, so the call's first load does not
 * carry it). The session keeps the capture (`microphone`, from useCallDevices), which the device
 * choice and the fallback watch; the filtered track is what it sends, mutes and records.
 */
export function useNoiseSuppression(
  session: MeetingSession,
  microphone: MediaStreamTrack | null,
  { ended, joinSettled }: { ended: boolean; joinSettled: boolean },
  notify: (message: string) => void,
) {
  const t = useTranslations('Meeting.noise');
  const on = useSyncExternalStore(subscribeNoiseSuppression, noiseSuppressionOn, serverNoiseSuppression);

  useEffect(() => {
    // Not before the join's connections are up (useJoinSettled.ts): the first second goes unfiltered.
    if (!on || !microphone || ended || !joinSettled || !noiseSuppressionSupported()) return;
    const abort = new AbortController();
    let suppressor: NoiseSuppressor | null = null;
    void import('@/lib/meeting/client/media/noise-suppression')
      .then(({ suppressNoise }) => suppressNoise(microphone, abort.signal))
      .then(async (made) => {
        // Turned off or the call ended while the filter loaded.
        if (abort.signal.aborted) return made.stop();
        suppressor = made;
        // Refused (and stopped) when the session holds another microphone by now.
        await session.inputs.setProcessor('audio', made);
      })
      .catch(() => {
        // No AudioWorklet, a wasm the browser refuses: the microphone goes out unfiltered, as
        // before, and the person is told.
        if (!abort.signal.aborted) notify(t('failed'));
      });
    return () => {
      abort.abort();
      // Turned off mid-call: the capture itself goes back on the links, with the mute state.
      if (suppressor) void session.inputs.removeProcessor('audio', suppressor);
    };
  }, [on, microphone, ended, joinSettled, session, notify, t]);
}
