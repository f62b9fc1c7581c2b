'use client';

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { LocalRecorder, recordingSupported, saveRecording } from '@/lib/meeting/client/media/recorder';
import type { MeetingSession } from '@/lib/meeting/client/call/session';
import type { TileModel } from '../../call/call-layout';

/**
 * Local recording of the call: start/stop, a running timer, and the file saved on this
 * machine. Everyone sees that we record (the session tells the others).
 */
export function useRecording(session: MeetingSession, tiles: TileModel[], videos: React.RefObject<Map<string, HTMLVideoElement | null>>, roomName: string) {
  const supported = useSyncExternalStore(subscribeNothing, recordingSupported, () => false);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [seconds, setSeconds] = useState(0);
  const recorder = useRef<LocalRecorder | null>(null);
  const currentTiles = useRef(tiles);
  useEffect(() => {
    currentTiles.current = tiles;
  });

  useEffect(() => {
    if (startedAt === null) return;
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - startedAt) / 1000)), 500);
    return () => clearInterval(timer);
  }, [startedAt]);

  const stop = useCallback(async () => {
    const active = recorder.current;
    if (!active) return;
    recorder.current = null;
    setStartedAt(null);
    setSeconds(0);
    session.setRecording(false);
    const blob = await active.stop();
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    saveRecording(blob, `${roomName.replace(/[^\p{L}\p{N}-]+/gu, '-')}-${stamp}.webm`);
  }, [roomName, session]);

  const toggle = useCallback(async () => {
    if (recorder.current) return stop();
    const next = new LocalRecorder({
      videos: () => currentTiles.current.map((tile) => ({ video: videos.current.get(tile.key) ?? null, name: tile.name })),
      audioTracks: () => {
        const state = session.getState();
        const own = session.localTrack('audio');
        return [...(own && !state.local.muted ? [own] : []), ...state.peers.flatMap((peer) => (peer.tracks.audio ? [peer.tracks.audio] : []))];
      },
    });
    next.start();
    recorder.current = next;
    setStartedAt(Date.now());
    session.setRecording(true);
  }, [session, stop, videos]);

  // Leaving the call ends the recording and still saves what was recorded.
  useEffect(() => () => void stop(), [stop]);

  return { supported, active: startedAt !== null, seconds, toggle };
}

function subscribeNothing() {
  return () => undefined;
}
