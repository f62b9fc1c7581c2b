'use client';

import { useCallback } from 'react';
import { useTranslations } from 'next-intl';
import { openInput, rememberedDevice } from '@/lib/meeting/client/media/devices';
import { getScreen } from '@/lib/meeting/client/media/capture';
import { isEnded } from '@/lib/meeting/client/call/meeting-state';
import type { MeetingSession, SessionState } from '@/lib/meeting/client/call/session';
import type { useRecording } from '../features/recording/useRecording';
import { usePictureInPicture } from '../call/usePictureInPicture';
import { useShortcuts } from '../call/useShortcuts';

export type Panel = 'chat' | 'people';

/** Everything the call's controls do and show: the toolbar, the shortcuts, the floating window and the invite read this one object. */
export interface CallControls {
  state: SessionState;
  panel: Panel | null;
  recording: ReturnType<typeof useRecording>;
  /** Picture-in-picture, where the browser has it (usePictureInPicture). */
  pip: { open: boolean; toggle: () => void } | null;
  mute(): void;
  camera(): void;
  screen(): void;
  hand(): void;
  react(emoji: string): void;
  copyLink(): void;
  togglePanel(panel: Panel): void;
  /** Opens the camera, microphone and speaker dialog. */
  devices(): void;
  /** Opens "Polls"; `waiting`: open polls of others we have not answered. */
  polls: { open(): void; waiting: number };
  /** The shared whiteboard: shown in the stage or not (components/meeting/features/whiteboard/). */
  whiteboard: { open: boolean; toggle: () => void };
  /** Opens "Captions"; `on`: our microphone is being captioned (features/captions/). */
  captions: { open(): void; on: boolean };
  /** The host's breakout rooms dialog (features/breakout/BreakoutDialog.tsx). */
  breakout(): void;
  leave(): void;
}

interface Options {
  session: MeetingSession;
  state: SessionState;
  panel: Panel | null;
  setPanel: (change: (current: Panel | null) => Panel | null) => void;
  recording: ReturnType<typeof useRecording>;
  openDevices: () => void;
  polls: CallControls['polls'];
  whiteboard: CallControls['whiteboard'];
  captions: CallControls['captions'];
  openBreakout: () => void;
  /** A short message over the call (the copied link, a refused camera). */
  flash: (message: string) => void;
  /** The <video> of what floats, for the video-only picture-in-picture. */
  pipVideo: () => HTMLVideoElement | null;
  roomName: string;
}

/**
 * The call's actions in one place (issue 49 point 2): the toolbar takes them as one prop instead
 * of a dozen, and the keyboard shortcuts and the picture-in-picture window run the same ones.
 */
export function useCallControls({
  session,
  state,
  panel,
  setPanel,
  recording,
  openDevices,
  polls,
  whiteboard,
  captions,
  openBreakout,
  flash,
  pipVideo,
  roomName,
}: Options) {
  const t = useTranslations('Meeting');

  const mute = useCallback(() => {
    if (!session.localTrack('audio')) return flash(t('noMicrophone'));
    session.setMuted(!session.getState().local.muted);
  }, [session, flash, t]);

  const camera = useCallback(async () => {
    if (session.localTrack('camera')) {
      session.localTrack('camera')?.stop();
      await session.setCamera(null);
      return;
    }
    try {
      // The camera chosen last (devices.ts); gone, the default.
      await session.setCamera((await openInput('videoinput', rememberedDevice('videoinput') || undefined)).track);
    } catch {
      flash(t('problem.denied'));
    }
  }, [session, flash, t]);

  const screen = useCallback(async () => {
    const current = session.localTrack('screen');
    if (current) {
      current.stop();
      await session.setScreen(null);
      return;
    }
    try {
      const track = await getScreen();
      // The browser's own "Stop sharing" button ends the track.
      track.addEventListener('ended', () => {
        if (session.localTrack('screen') === track) void session.setScreen(null);
      });
      await session.setScreen(track);
    } catch {
      // the user cancelled the picker
    }
  }, [session]);

  const leave = useCallback(() => session.leave(), [session]);
  const hand = useCallback(() => session.setHand(!session.getState().local.hand), [session]);
  const togglePanel = useCallback((which: Panel) => setPanel((current) => (current === which ? null : which)), [setPanel]);

  /**
   * The room's link, without the key: it works for as long as the room exists, whoever opens it
   * gets the current key from a participant (admitted first where the room asks). A "#k=" link
   * would die at the next rekey or restart (issue 48; docs/e2ee-crypto.md "Who gets S").
   */
  const copyLink = useCallback(async () => {
    const link = `${window.location.origin}${window.location.pathname}`;
    try {
      await navigator.clipboard.writeText(link);
      flash(t('linkCopied'));
    } catch {
      flash(link);
    }
  }, [flash, t]);

  const pip = usePictureInPicture({
    video: pipVideo,
    onMute: mute,
    onLeave: leave,
    muted: state.local.muted,
    title: roomName,
    active: state.phase !== 'waiting' && !isEnded(state.phase),
  });

  useShortcuts({ toggleMute: mute, toggleCamera: () => void camera(), toggleHand: hand, toggleChat: () => togglePanel('chat') });

  const controls: CallControls = {
    state,
    panel,
    recording,
    pip: pip.supported ? { open: pip.open, toggle: () => void pip.toggle().catch(() => flash(t('pip.failed'))) } : null,
    mute,
    camera: () => void camera(),
    screen: () => void screen(),
    hand,
    react: (emoji) => session.react(emoji),
    copyLink: () => void copyLink(),
    togglePanel,
    devices: openDevices,
    polls,
    whiteboard,
    captions,
    breakout: openBreakout,
    leave,
  };
  /** The document picture-in-picture window, for the call to render the floating tile into. */
  return { controls, pipWindow: pip.pipWindow };
}
