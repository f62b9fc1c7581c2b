// The devices a person picked (microphone, camera, speaker), remembered on this device for the
// lobby and the call; opening a remembered device that is gone falls back to the default; the
// speaker choice as a small store the audio elements follow (HTMLMediaElement.setSinkId).
import { rememberedBackground } from '../background/choice';
import { describeMediaError, getCamera, getMicrophone } from './capture';

export type InputKind = 'audioinput' | 'videoinput';
export type DeviceKind = InputKind | 'audiooutput';

const STORAGE_KEY = 'enclave.devices';

function readAll(): Partial<Record<DeviceKind, string>> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Partial<Record<DeviceKind, string>>) : {};
  } catch {
    return {};
  }
}

/** The device last chosen for this kind on this browser, '' for the default. */
export function rememberedDevice(kind: DeviceKind): string {
  if (typeof window === 'undefined') return '';
  const id = readAll()[kind];
  return typeof id === 'string' ? id : '';
}

export function rememberDevice(kind: DeviceKind, id: string) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...readAll(), [kind]: id }));
  } catch {
    // private mode: nothing remembered
  }
}

/**
 * Opens a camera or microphone; when the chosen one is gone (unplugged, another browser
 * profile's id), the default instead. `fellBack` says which happened. A camera comes with the
 * background effect chosen on this device (background/apply.ts).
 */
export async function openInput(kind: InputKind, id?: string): Promise<{ track: MediaStreamTrack; fellBack: boolean }> {
  const opened = await openDevice(kind, id);
  if (kind !== 'videoinput' || rememberedBackground().kind === 'off') return opened;
  const { withBackground } = await import('../background/apply');
  return { ...opened, track: await withBackground(opened.track) };
}

async function openDevice(kind: InputKind, id?: string): Promise<{ track: MediaStreamTrack; fellBack: boolean }> {
  const open = kind === 'audioinput' ? getMicrophone : getCamera;
  if (!id) return { track: await open(), fellBack: false };
  try {
    return { track: await open(id), fellBack: false };
  } catch (error) {
    if (describeMediaError(error) !== 'not-found') throw error;
    return { track: await open(), fellBack: true };
  }
}

export interface DeviceLists {
  audioInputs: MediaDeviceInfo[];
  videoInputs: MediaDeviceInfo[];
  audioOutputs: MediaDeviceInfo[];
}

export async function listAllDevices(): Promise<DeviceLists> {
  const devices = await navigator.mediaDevices.enumerateDevices().catch(() => [] as MediaDeviceInfo[]);
  const of = (kind: DeviceKind) => devices.filter((device) => device.kind === kind && device.deviceId);
  return { audioInputs: of('audioinput'), videoInputs: of('videoinput'), audioOutputs: of('audiooutput') };
}

/** Firefox before 116 and Safari cannot route a page's audio to another output: no speaker choice there. */
export function speakerChoiceSupported(): boolean {
  return typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;
}

// ---- the speaker: one choice for every remote voice ----

const speakerListeners = new Set<() => void>();
let speaker: string | null = null;

export function currentSpeaker(): string {
  speaker ??= rememberedDevice('audiooutput');
  return speaker;
}

export function serverSpeaker(): string {
  return '';
}

export function subscribeSpeaker(listener: () => void): () => void {
  speakerListeners.add(listener);
  return () => speakerListeners.delete(listener);
}

export function setSpeaker(id: string, remember = true) {
  speaker = id;
  if (remember) rememberDevice('audiooutput', id);
  for (const listener of speakerListeners) listener();
}

/** Plays `element` on the chosen output; an output that is gone leaves it on the default. */
export async function routeAudio(element: HTMLMediaElement, id: string): Promise<void> {
  const sink = element as HTMLMediaElement & { setSinkId?: (id: string) => Promise<void>; sinkId?: string };
  if (!sink.setSinkId || sink.sinkId === id) return;
  await sink.setSinkId(id).catch(() => sink.setSinkId!('').catch(() => undefined));
}
