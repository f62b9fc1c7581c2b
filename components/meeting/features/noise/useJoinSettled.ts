'use client';

import { useEffect, useState } from 'react';
import type { SessionState } from '@/lib/meeting/client/call/meeting-state';

/** A join's connections get this long before work that can wait starts anyway (a call through the SFU, a peer that never answers). */
export const JOIN_SETTLE_MAX_MS = 3000;

const settledPeer = (connection: RTCPeerConnectionState) => connection === 'connected' || connection === 'failed' || connection === 'closed';

/**
 * True from the moment this page's join has settled, and for the rest of the call: in the call,
 * and our media through the SFU (a large call keeps no link to wait for, route-pin.ts
 * LINKS_UP_TO, and what links it keeps carry no media) or every peer present connected (or
 * failed); or JOIN_SETTLE_MAX_MS after the call view came up.
 * Work that can wait (noise suppression's AudioContext, worklet and WebAssembly) waits for it:
 * started at once, RNNoise's loading took the join's CPU and a third person saw both others
 * ~240 ms later on this 2-core machine (`SETTLE_MS=4000 npm run bench:join`, bench/RESULTS.md).
 */
export function useJoinSettled(state: Pick<SessionState, 'phase' | 'peers' | 'mediaRoute'>): boolean {
  const [settled, setSettled] = useState(false);
  const now = state.phase === 'in-call' && (state.mediaRoute === 'sfu' || state.peers.every((peer) => settledPeer(peer.connection)));
  // Latched while rendering (React's "adjust state when a prop changes"): once settled, for good.
  if (now && !settled) setSettled(true);
  useEffect(() => {
    if (settled) return;
    const timer = window.setTimeout(() => setSettled(true), JOIN_SETTLE_MAX_MS);
    return () => window.clearTimeout(timer);
  }, [settled]);
  return settled || now;
}
