'use client';

// Loaded only when opened (CallView imports it lazily): the call's first load does not carry it.
import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import {
  currentSpeaker,
  listAllDevices,
  serverSpeaker,
  setSpeaker,
  speakerChoiceSupported,
  subscribeSpeaker,
  type DeviceLists,
  type InputKind,
} from '@/lib/meeting/client/media/devices';
import { describeMediaError, type MediaProblem } from '@/lib/meeting/client/media/capture';
import { NoiseSuppressionToggle } from '../features/noise/NoiseSuppressionToggle';
import { rawCamera } from '@/lib/meeting/client/background/registry';
import { BackgroundPicker } from '../features/background/BackgroundPicker';
import { useBackgroundChoice } from '../features/background/useBackgroundChoice';

interface DeviceSettingsProps {
  microphone: MediaStreamTrack | null;
  camera: MediaStreamTrack | null;
  /** The camera chosen while it is off (devices.ts), used when it is turned on. */
  cameraChoice: string;
  onSwitch: (kind: InputKind, id: string) => Promise<void>;
  /** Sends another track for the camera (the same camera with another background effect). */
  onReplaceCamera: (track: MediaStreamTrack) => Promise<void>;
  onClose: () => void;
}

/** Microphone, camera and speaker, changed without leaving the call. */
export default function DeviceSettings({ microphone, camera, cameraChoice, onSwitch, onReplaceCamera, onClose }: DeviceSettingsProps) {
  const t = useTranslations('Meeting');
  const [devices, setDevices] = useState<DeviceLists>({ audioInputs: [], videoInputs: [], audioOutputs: [] });
  const [busy, setBusy] = useState<InputKind | null>(null);
  const [problem, setProblem] = useState<MediaProblem>(null);
  const speaker = useSyncExternalStore(subscribeSpeaker, currentSpeaker, serverSpeaker);
  const [chosenCamera, setChosenCamera] = useState(cameraChoice);
  const background = useBackgroundChoice(camera, onReplaceCamera);

  useEffect(() => {
    const load = () => void listAllDevices().then(setDevices);
    load();
    navigator.mediaDevices?.addEventListener('devicechange', load);
    return () => navigator.mediaDevices?.removeEventListener('devicechange', load);
  }, []);

  async function choose(kind: InputKind, id: string) {
    setBusy(kind);
    setProblem(null);
    if (kind === 'videoinput') setChosenCamera(id);
    try {
      await onSwitch(kind, id);
    } catch (error) {
      setProblem(describeMediaError(error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Dialog title={t('devices.title')} onClose={onClose} size="max-w-md">
      <div className="flex flex-col gap-4">
        <DeviceSelect
          label={t('microphone')}
          devices={devices.audioInputs}
          value={microphone?.getSettings().deviceId ?? ''}
          busy={busy === 'audioinput'}
          onChange={(id) => void choose('audioinput', id)}
        />
        <NoiseSuppressionToggle tone="light" />
        <DeviceSelect
          label={t('camera')}
          devices={devices.videoInputs}
          value={camera ? (rawCamera(camera).getSettings().deviceId ?? '') : chosenCamera}
          busy={busy === 'videoinput'}
          hint={camera ? undefined : t('devices.cameraOffHint')}
          onChange={(id) => void choose('videoinput', id)}
        />
        {speakerChoiceSupported() && (
          <DeviceSelect label={t('devices.speaker')} devices={devices.audioOutputs} value={speaker} onChange={(id) => setSpeaker(id)} />
        )}
        <BackgroundPicker onChoose={background.choose} cameraOn={Boolean(camera)} />
        {problem && (
          <p role="alert" className="rounded-md bg-amber-100 px-3 py-2 text-sm text-amber-900">
            {t(`problem.${problem}`)}
          </p>
        )}
      </div>
    </Dialog>
  );
}

function DeviceSelect({
  label,
  devices,
  value,
  busy,
  hint,
  onChange,
}: {
  label: string;
  devices: MediaDeviceInfo[];
  value: string;
  busy?: boolean;
  hint?: string;
  onChange: (id: string) => void;
}) {
  const id = useId();
  if (devices.length === 0) return null;
  // An id the list does not hold (the default, opened without one) shows as the first entry.
  const selected = devices.some((device) => device.deviceId === value) ? value : devices[0]!.deviceId;
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <select
        id={id}
        value={selected}
        aria-busy={busy || undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.value)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1.5"
      >
        {devices.map((device, index) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || `${label} ${index + 1}`}
          </option>
        ))}
      </select>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
    </div>
  );
}
