'use client';

import { useEffect, useRef } from 'react';

interface Shortcuts {
  toggleMute: () => void;
  toggleCamera: () => void;
  toggleHand: () => void;
  toggleChat: () => void;
}

/**
 * The keys Google Meet users know: Ctrl/⌘+D microphone, Ctrl/⌘+E camera, Ctrl/⌘+Alt+H hand,
 * Ctrl/⌘+Alt+C chat. Ignored while typing in a field (except the media keys, as in Meet).
 */
export function useShortcuts(shortcuts: Shortcuts) {
  const latest = useRef(shortcuts);
  useEffect(() => {
    latest.current = shortcuts;
  });
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (!(event.ctrlKey || event.metaKey) || event.shiftKey) return;
      const key = event.key.toLowerCase();
      const action = event.altKey
        ? key === 'h' || event.code === 'KeyH'
          ? latest.current.toggleHand
          : key === 'c' || event.code === 'KeyC'
            ? latest.current.toggleChat
            : null
        : key === 'd'
          ? latest.current.toggleMute
          : key === 'e'
            ? latest.current.toggleCamera
            : null;
      if (!action) return;
      event.preventDefault();
      action();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
