'use client';

import { useEffect, useRef, useSyncExternalStore } from 'react';
import { currentSpeaker, routeAudio, serverSpeaker, subscribeSpeaker } from '@/lib/meeting/client/media/devices';

interface VideoViewProps {
  track: MediaStreamTrack;
  muted?: boolean;
  mirrored?: boolean;
  className?: string;
  /** Lets the recorder find the element it draws. */
  videoRef?: (element: HTMLVideoElement | null) => void;
}

/** A <video> playing one track. Remote audio plays elsewhere (AudioSink), so this is muted. */
export function VideoView({ track, mirrored, className, videoRef }: VideoViewProps) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    video.srcObject = new MediaStream([track]);
    void video.play().catch(() => undefined);
    return () => {
      video.srcObject = null;
    };
  }, [track]);
  return (
    <video
      ref={(element) => {
        ref.current = element;
        videoRef?.(element);
      }}
      autoPlay
      playsInline
      muted
      className={`${className ?? ''} ${mirrored ? '-scale-x-100' : ''}`}
    />
  );
}

/** Plays one remote audio track, on the chosen speaker. Kept apart from the tiles so a hidden tile is still heard. */
export function AudioSink({ track }: { track: MediaStreamTrack }) {
  const ref = useRef<HTMLAudioElement>(null);
  const speaker = useSyncExternalStore(subscribeSpeaker, currentSpeaker, serverSpeaker);
  useEffect(() => {
    if (ref.current) void routeAudio(ref.current, speaker);
  }, [speaker]);
  useEffect(() => {
    const audio = ref.current;
    if (!audio) return;
    audio.srcObject = new MediaStream([track]);
    void audio.play().catch(() => undefined);
    return () => {
      audio.srcObject = null;
    };
  }, [track]);
  return <audio ref={ref} autoPlay />;
}
