'use client';

import { useMemo, useSyncExternalStore } from 'react';
import type { MeetingSession, SessionState } from '@/lib/meeting/client/call/session';
import { BREAKOUT } from '@/lib/meeting/client/breakout/breakout-feature';

/**
 * The call as this page's breakout room sees it: while rooms are open, the people in other rooms
 * are left out of the stage, the sound, the header's count and the people panel (their links
 * carry nothing to us anyway: lib/meeting/client/breakout/breakout-feature.ts).
 */
export function useBreakout(session: MeetingSession, full: SessionState) {
  const feature = session.features.use(BREAKOUT);
  const breakout = useSyncExternalStore(feature.subscribe, feature.getState, feature.getState);
  const state = useMemo(
    () => (breakout.open ? { ...full, peers: full.peers.filter((peer) => !feature.isApart(peer.id)) } : full),
    [breakout.open, full, feature],
  );
  return { state, breakout, feature };
}
