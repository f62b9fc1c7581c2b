'use client';

import { useEffect } from 'react';
import { shouldReloadForOutage } from '@/lib/db/outage-reload';

declare global {
  interface Window {
    __enclaveChunkError?: () => void;
  }
}

/**
 * Whatever broke this page: if it is the database (lib/db/outage-reload.ts), load the page in full
 * to get the server's "unavailable" page that retries by itself; else (most often a chunk that did
 * not load) show the reload prompt that the layout rendered in the page's language
 * (components/public/ChunkErrorPrompt) instead of a blank page.
 */
export default function PageError() {
  useEffect(() => {
    let current = true;
    void shouldReloadForOutage().then((reload) => {
      if (!current) return;
      if (reload) window.location.reload();
      else window.__enclaveChunkError?.();
    });
    return () => {
      current = false;
    };
  }, []);
  return null;
}
