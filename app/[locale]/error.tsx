'use client';

import { useEffect } from 'react';

declare global {
  interface Window {
    __enclaveChunkError?: () => void;
  }
}

/**
 * Whatever broke this page (most often a chunk that did not load), show the reload prompt that the
 * layout rendered in the page's language (components/public/ChunkErrorPrompt) instead of a blank page.
 */
export default function PageError() {
  useEffect(() => {
    window.__enclaveChunkError?.();
  }, []);
  return null;
}
