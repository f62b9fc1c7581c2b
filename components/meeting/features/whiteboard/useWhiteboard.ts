'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import type { MeetingSession, RemotePeer } from '@/lib/meeting/client/call/session';
import type { WhiteboardSync } from '@/lib/meeting/client/whiteboard/board-sync';
import { WHITEBOARD } from '@/lib/meeting/client/whiteboard/whiteboard-feature';

/**
 * The call's whiteboard as the call view holds it: open or not on this page (each page decides
 * for itself), its board loaded the first time it opens, and a notice — once, until it is
 * opened — when someone draws while it is closed.
 */
export function useWhiteboard(session: MeetingSession, peers: RemotePeer[], flash: (message: string) => void) {
  const t = useTranslations('Whiteboard');
  /** The board, once opened here; it stays loaded (and in sync) when closed. */
  const [board, setBoard] = useState<{ sync: WhiteboardSync; open: boolean } | null>(null);
  const open = Boolean(board?.open);

  const toggle = useCallback(() => {
    if (board) return setBoard({ ...board, open: !board.open });
    void session.features
      .use(WHITEBOARD)
      .load()
      .then((sync) => setBoard({ sync, open: true }));
  }, [session, board]);

  const told = useRef(false);
  const news = useRef<(peerId: string) => void>(() => undefined);
  useEffect(() => {
    if (open) told.current = false;
    news.current = (peerId) => {
      if (open || told.current) return;
      told.current = true;
      flash(t('peerDrawing', { name: peers.find((peer) => peer.id === peerId)?.name ?? '' }));
    };
  }, [open, flash, t, peers]);
  useEffect(() => session.features.use(WHITEBOARD).onPeerChange((peerId) => news.current(peerId)), [session]);

  return { sync: board?.sync ?? null, open, toggle };
}
