// The local camera, microphone and screen: acquisition with the user's chosen devices, the
// reasons a browser refuses, and a microphone level meter for the lobby.

export type MediaProblem = 'denied' | 'not-found' | 'in-use' | 'unsupported' | null;

export const CAMERA_CONSTRAINTS: MediaTrackConstraints = {
  width: { ideal: 1280 },
  height: { ideal: 720 },
  frameRate: { ideal: 30, max: 30 },
};

/** Is this a browser the meeting can run in at all? */
export function meetingSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.RTCPeerConnection === 'function' &&
    typeof navigator.mediaDevices?.getUserMedia === 'function' &&
    typeof window.ReadableStream === 'function'
  );
}

export function describeMediaError(error: unknown): MediaProblem {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'not-found';
  if (name === 'NotReadableError' || name === 'AbortError') return 'in-use';
  return 'unsupported';
}

export async function getMicrophone(deviceId?: string): Promise<MediaStreamTrack> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { deviceId: deviceId ? { exact: deviceId } : undefined, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
  });
  return stream.getAudioTracks()[0]!;
}

export async function getCamera(deviceId?: string): Promise<MediaStreamTrack> {
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { ...CAMERA_CONSTRAINTS, deviceId: deviceId ? { exact: deviceId } : undefined },
  });
  const track = stream.getVideoTracks()[0]!;
  track.contentHint = 'motion';
  return track;
}

export async function getScreen(): Promise<MediaStreamTrack> {
  const stream = await navigator.mediaDevices.getDisplayMedia({ video: { frameRate: { ideal: 15, max: 30 } }, audio: false });
  const track = stream.getVideoTracks()[0]!;
  track.contentHint = 'detail';
  return track;
}

export async function listDevices(): Promise<{ audioInputs: MediaDeviceInfo[]; videoInputs: MediaDeviceInfo[] }> {
  const devices = await navigator.mediaDevices.enumerateDevices().catch(() => [] as MediaDeviceInfo[]);
  return {
    audioInputs: devices.filter((device) => device.kind === 'audioinput' && device.deviceId),
    videoInputs: devices.filter((device) => device.kind === 'videoinput' && device.deviceId),
  };
}

/** Calls `onLevel` (0..1) about 15 times a second until the returned stop() is called. */
export function watchLevel(track: MediaStreamTrack, onLevel: (level: number) => void): () => void {
  const context = new AudioContext();
  const source = context.createMediaStreamSource(new MediaStream([track]));
  const analyser = context.createAnalyser();
  analyser.fftSize = 512;
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const timer = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    // RMS on a rough logarithmic scale, so speech fills the meter without clipping.
    const rms = Math.sqrt(sum / samples.length);
    onLevel(Math.min(1, Math.max(0, (20 * Math.log10(rms || 1e-8) + 60) / 60)));
  }, 66);
  return () => {
    clearInterval(timer);
    source.disconnect();
    void context.close();
  };
}

export function stopTrack(track: MediaStreamTrack | null | undefined) {
  track?.stop();
}
