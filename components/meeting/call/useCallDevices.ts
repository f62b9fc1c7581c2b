'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { openInput, rememberDevice, type InputKind } from '@/lib/meeting/client/media/devices';
import type { MeetingSession } from '@/lib/meeting/client/call/session';
import type { InputSlot } from './device-fallback';

export interface CallDevices {
  /** Opens the device and swaps it into every link; '' means the default. */
  switchInput: (kind: InputKind, id: string) => Promise<void>;
  /** The microphone now sent (it changes on a switch; the camera is in the session state). */
  microphone: MediaStreamTrack | null;
}

/**
 * Changing devices during the call, and what happens when one disappears: a track that ends
 * (unplugged, or the system took it) or a devicechange that leaves our speaker out falls back
 * to the default, with a notice.
 */
export function useCallDevices(session: MeetingSession, camera: MediaStreamTrack | null, notify: (message: string) => void): CallDevices {
  const t = useTranslations('Meeting.devices');
  const [microphone, setMicrophone] = useState(() => session.localTrack('audio'));
  // A track that ends may also be seen by devicechange: fall back once.
  const handled = useRef(new WeakSet<MediaStreamTrack>());
  // The capture, which the session may send through a filter (useNoiseSuppression) instead of itself.
  const capture = useRef(microphone);
  const current = useCallback((slot: InputSlot) => (slot === 'audio' ? capture.current : session.localTrack('camera')), [session]);

  const swapIn = useCallback(
    async (slot: InputSlot, track: MediaStreamTrack) => {
      await session.switchInput(slot, track);
      if (slot !== 'audio') return;
      capture.current = track;
      setMicrophone(track);
    },
    [session],
  );

  const switchInput = useCallback(
    async (kind: InputKind, id: string) => {
      rememberDevice(kind, id);
      const slot: InputSlot = kind === 'audioinput' ? 'audio' : 'camera';
      // Camera off: the choice is used when it is turned on (CallView's toggle).
      if (slot === 'camera' && !session.localTrack('camera')) return;
      const { track } = await openInput(kind, id || undefined);
      await swapIn(slot, track);
    },
    [session, swapIn],
  );

  useEffect(() => {
    const watched = (
      [
        ['audio', microphone],
        ['camera', camera],
      ] as const
    ).filter((entry): entry is readonly [InputSlot, MediaStreamTrack] => entry[1] !== null);
    // The fallback's code loads the first time a device goes (device-fallback.ts).
    const lost = (slot: InputSlot, track: MediaStreamTrack) => {
      if (handled.current.has(track) || current(slot) !== track) return;
      handled.current.add(track);
      void import('./device-fallback').then(({ fallBack }) =>
        fallBack({
          session,
          slot,
          track,
          current,
          swapIn,
          notify: (switched) => notify(t(`${slot === 'audio' ? 'microphone' : 'camera'}${switched ? 'Lost' : 'Gone'}`)),
        }),
      );
    };
    const listeners = watched.map(([slot, track]) => {
      const onEnded = () => lost(slot, track);
      track.addEventListener('ended', onEnded);
      return () => track.removeEventListener('ended', onEnded);
    });
    const onDeviceChange = () => {
      for (const [slot, track] of watched) if (track.readyState === 'ended') lost(slot, track);
      void import('./device-fallback').then(({ checkSpeaker }) => checkSpeaker(() => notify(t('speakerLost'))));
    };
    const media = navigator.mediaDevices;
    media?.addEventListener('devicechange', onDeviceChange);
    return () => {
      for (const remove of listeners) remove();
      media?.removeEventListener('devicechange', onDeviceChange);
    };
  }, [session, microphone, camera, notify, swapIn, current, t]);

  return { switchInput, microphone };
}
