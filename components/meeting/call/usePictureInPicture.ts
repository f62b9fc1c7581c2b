'use client';

import { useCallback, useEffect, useState } from 'react';

/** Document Picture-in-Picture (Chromium 116+): a small always-on-top window we fill ourselves. */
interface DocumentPictureInPicture {
  requestWindow(options?: { width?: number; height?: number }): Promise<Window>;
  window: Window | null;
}

declare global {
  interface Window {
    documentPictureInPicture?: DocumentPictureInPicture;
  }
}

export type PipKind = 'document' | 'video' | null;

/** Which float this browser offers: a whole window (with our controls), a video alone, or none. */
export function pipKind(): PipKind {
  if (typeof window === 'undefined') return null;
  if (window.documentPictureInPicture) return 'document';
  if (document.pictureInPictureEnabled && 'requestPictureInPicture' in HTMLVideoElement.prototype) return 'video';
  return null;
}

interface PipOptions {
  /** The <video> of what floats, for the video-only fallback. */
  video: () => HTMLVideoElement | null;
  onMute: () => void;
  onLeave: () => void;
  muted: boolean;
  title: string;
  /** Still in the call: once it ends (left, removed, waiting room) nothing floats. */
  active: boolean;
}

/**
 * Floats the call above other windows: Document Picture-in-Picture where the browser has it (the
 * caller renders into `window` through a portal), else the video element's own PiP, with mute and
 * leave through the Media Session's microphone and hang-up actions.
 */
export function usePictureInPicture({ video, onMute, onLeave, muted, title, active }: PipOptions) {
  const [kind] = useState(pipKind);
  const [pipWindow, setPipWindow] = useState<Window | null>(null);
  const [videoOpen, setVideoOpen] = useState(false);

  const toggle = useCallback(async () => {
    if (pipWindow) return pipWindow.close();
    if (document.pictureInPictureElement) return void (await document.exitPictureInPicture());
    if (kind === 'document') {
      // Its code loads now: the click's user activation lasts seconds, the import takes milliseconds.
      const { openPipWindow } = await import('./pip-window');
      const opened = await openPipWindow(title);
      opened.addEventListener('pagehide', () => setPipWindow(null), { once: true });
      setPipWindow(opened);
    } else if (kind === 'video') {
      const element = video();
      if (!element) return;
      await element.requestPictureInPicture();
      setVideoOpen(true);
      element.addEventListener('leavepictureinpicture', () => setVideoOpen(false), { once: true });
    }
  }, [kind, pipWindow, title, video]);

  // The video's own PiP window has room for no controls of ours: the browser's microphone and
  // hang-up buttons stand in for them where it shows them.
  useEffect(() => {
    if (!videoOpen || !('mediaSession' in navigator)) return;
    // Newer than TypeScript's DOM types: the calling actions (Chromium 97+).
    const session = navigator.mediaSession as unknown as {
      setActionHandler(action: 'togglemicrophone' | 'hangup', handler: (() => void) | null): void;
      setMicrophoneActive?: (active: boolean) => void;
    };
    try {
      session.setActionHandler('togglemicrophone', onMute);
      session.setActionHandler('hangup', onLeave);
      session.setMicrophoneActive?.(!muted);
    } catch {
      // an action this browser does not know
    }
    return () => {
      try {
        session.setActionHandler('togglemicrophone', null);
        session.setActionHandler('hangup', null);
      } catch {
        // as above
      }
    };
  }, [videoOpen, onMute, onLeave, muted]);

  // The call ends (left, removed) or its screen goes: the floating window goes with it.
  useEffect(() => {
    if (!active) {
      pipWindow?.close();
      if (videoOpen && document.pictureInPictureElement) void document.exitPictureInPicture().catch(() => undefined);
    }
  }, [active, pipWindow, videoOpen]);
  useEffect(() => () => pipWindow?.close(), [pipWindow]);

  return { supported: kind !== null, open: pipWindow !== null || videoOpen, toggle, pipWindow };
}
