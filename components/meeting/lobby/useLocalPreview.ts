'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { openInput, rememberDevice, rememberedDevice } from '@/lib/meeting/client/media/devices';
import { describeMediaError, listDevices, stopTrack, watchLevel, type MediaProblem } from '@/lib/meeting/client/media/capture';

export interface LocalPreview {
  microphone: MediaStreamTrack | null;
  camera: MediaStreamTrack | null;
  micProblem: MediaProblem;
  cameraProblem: MediaProblem;
  audioInputs: MediaDeviceInfo[];
  videoInputs: MediaDeviceInfo[];
  audioInput: string;
  videoInput: string;
  level: number;
  cameraOn: boolean;
  micOn: boolean;
  setAudioInput: (id: string) => void;
  setVideoInput: (id: string) => void;
  setCameraOn: (on: boolean) => void;
  setMicOn: (on: boolean) => void;
  /** Resolves when no device request is in flight, so a quick click does not join without a camera. */
  settled: () => Promise<void>;
  /** Shows and later hands over another camera track (the same camera with another background). */
  replaceCamera: (track: MediaStreamTrack) => void;
  /** Hands the tracks over to the call; the preview stops owning them. */
  takeTracks: () => { microphone: MediaStreamTrack | null; camera: MediaStreamTrack | null };
}

/** The lobby's camera and microphone: acquired separately, so one refused leaves the other. */
export function useLocalPreview(initialCameraOn: boolean): LocalPreview {
  const [microphone, setMicrophone] = useState<MediaStreamTrack | null>(null);
  const [camera, setCamera] = useState<MediaStreamTrack | null>(null);
  const [micProblem, setMicProblem] = useState<MediaProblem>(null);
  const [cameraProblem, setCameraProblem] = useState<MediaProblem>(null);
  const [devices, setDevices] = useState<{ audioInputs: MediaDeviceInfo[]; videoInputs: MediaDeviceInfo[] }>({
    audioInputs: [],
    videoInputs: [],
  });
  // The devices chosen last time, here or in a call (devices.ts); a missing one falls back to the default.
  const [audioInput, setAudioInputState] = useState(() => rememberedDevice('audioinput'));
  const [videoInput, setVideoInputState] = useState(() => rememberedDevice('videoinput'));
  const setAudioInput = useCallback((id: string) => {
    rememberDevice('audioinput', id);
    setAudioInputState(id);
  }, []);
  const setVideoInput = useCallback((id: string) => {
    rememberDevice('videoinput', id);
    setVideoInputState(id);
  }, []);
  const [level, setLevel] = useState(0);
  const [cameraOn, setCameraOnState] = useState(initialCameraOn);
  const [micOn, setMicOnState] = useState(true);
  const handedOver = useRef(false);
  const pending = useRef<{ microphone: Promise<unknown>; camera: Promise<unknown> }>({
    microphone: Promise.resolve(),
    camera: Promise.resolve(),
  });
  const tracks = useRef<{ microphone: MediaStreamTrack | null; camera: MediaStreamTrack | null }>({
    microphone: null,
    camera: null,
  });

  useEffect(() => {
    let cancelled = false;
    pending.current.microphone = openInput('audioinput', audioInput || undefined)
      .then(({ track }) => {
        if (cancelled) return track.stop();
        stopTrack(tracks.current.microphone);
        tracks.current.microphone = track;
        setMicrophone(track);
        setMicProblem(null);
      })
      .catch((error) => !cancelled && setMicProblem(describeMediaError(error)))
      .finally(() => !cancelled && void listDevices().then(setDevices));
    return () => {
      cancelled = true;
    };
  }, [audioInput]);

  useEffect(() => {
    let cancelled = false;
    if (!cameraOn) return;
    pending.current.camera = openInput('videoinput', videoInput || undefined)
      .then(({ track }) => {
        if (cancelled) return track.stop();
        stopTrack(tracks.current.camera);
        tracks.current.camera = track;
        setCamera(track);
        setCameraProblem(null);
      })
      .catch((error) => {
        if (cancelled) return;
        setCameraProblem(describeMediaError(error));
        setCameraOnState(false);
      })
      .finally(() => !cancelled && void listDevices().then(setDevices));
    return () => {
      cancelled = true;
    };
  }, [cameraOn, videoInput]);

  useEffect(() => {
    if (!microphone || !micOn) return;
    return watchLevel(microphone, setLevel);
  }, [microphone, micOn]);

  const setCameraOn = useCallback((on: boolean) => {
    if (!on) {
      // Off means off: the capture stops and the camera light goes out.
      stopTrack(tracks.current.camera);
      tracks.current.camera = null;
      setCamera(null);
    }
    setCameraOnState(on);
  }, []);

  const setMicOn = useCallback((on: boolean) => {
    if (tracks.current.microphone) tracks.current.microphone.enabled = on;
    setMicOnState(on);
  }, []);

  // Leaving the lobby without joining releases the devices (the camera light goes out).
  useEffect(
    () => () => {
      if (handedOver.current) return;
      stopTrack(tracks.current.microphone);
      stopTrack(tracks.current.camera);
    },
    [],
  );

  const replaceCamera = useCallback((track: MediaStreamTrack) => {
    tracks.current.camera = track;
    setCamera(track);
  }, []);

  const settled = useCallback(async () => {
    await Promise.allSettled([pending.current.microphone, pending.current.camera]);
  }, []);

  const takeTracks = useCallback(() => {
    handedOver.current = true;
    return { ...tracks.current };
  }, []);

  return {
    microphone,
    camera,
    micProblem,
    cameraProblem,
    ...devices,
    audioInput,
    videoInput,
    level: micOn ? level : 0,
    cameraOn,
    micOn,
    setAudioInput,
    setVideoInput,
    setCameraOn,
    setMicOn,
    settled,
    replaceCamera,
    takeTracks,
  };
}
