'use client';

import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import type { JoinAnswer, MeetingInfo } from '@/lib/meeting/protocol';
import { MAX_NAME_LENGTH } from '@/lib/meeting/protocol';
import { cameraOnByDefault } from '@/lib/meeting/client/media/encoding-policy';
import { routePin, startingRoute } from '@/lib/meeting/client/call/route-pin';
import { warmSfuSide } from '@/lib/meeting/client/call/sfu-route';
import { postJoin, type OpenedStream } from '@/lib/meeting/client/signaling/signaling';
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import { Field } from '@/components/forms/Field';
import { useErrorText } from '@/components/forms/useErrorText';
import { useLocalPreview } from './useLocalPreview';
import { useRoomPassword } from './useRoomPassword';
import { VideoView } from '../VideoView';
import { BackgroundIcon, CameraIcon, MicIcon } from '../icons';
import { NoiseSuppressionToggle } from '../features/noise/NoiseSuppressionToggle';
import { useBackgroundChoice } from '../features/background/useBackgroundChoice';

// Loaded when first opened, not with the lobby.
const BackgroundDialog = lazy(() => import('../features/background/BackgroundDialog'));

export interface JoinResult {
  join: JoinAnswer;
  microphone: MediaStreamTrack | null;
  camera: MediaStreamTrack | null;
  micOn: boolean;
  /** From the room password, for the call's key (docs/e2ee-crypto.md "Secrets"); null without a password. */
  passwordKey: Bytes | null;
  /** The join carried our handoff key: those present hand the room secret over unasked. */
  keyRequestPosted: boolean;
  /** The event stream the join opened, if the server sent one (else the session opens its own). */
  stream: OpenedStream | null;
}

interface LobbyProps {
  info: MeetingInfo;
  onJoined: (result: JoinResult) => void;
  /** The handoff key to post with the join, when this page has no room secret (else null). */
  keyRequest: () => Promise<string | null>;
}

/** Before the call: see and hear yourself, pick devices, give a name and the password. */
export function Lobby({ info, onJoined, keyRequest }: LobbyProps) {
  const t = useTranslations('Meeting');
  const errorText = useErrorText();
  const joiningAs = info.participantCount + 1;
  const startsOnSfu = startingRoute(joiningAs, routePin(window.location.search, info.mediaRoute), info.sfu) === 'sfu';
  const preview = useLocalPreview(cameraOnByDefault(joiningAs, startsOnSfu));
  useEffect(() => {
    if (startsOnSfu) warmSfuSide();
  }, [startsOnSfu]);
  // A guest's name is remembered on this device, as Google Meet does, for the next meeting or a rejoin.
  const [name, setName] = useState(() => info.userName ?? readGuestName());
  const [password, setPassword] = useState('');
  const [error, setError] = useState<{ code: string; field?: string } | null>(null);
  const [joining, setJoining] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const roomPassword = useRoomPassword(info);
  const { needsPassword } = roomPassword;
  const needsName = !info.userName;
  const background = useBackgroundChoice(preview.camera, preview.replaceCamera);

  useEffect(() => {
    if (error?.field === 'password') passwordRef.current?.focus();
    if (error?.field === 'name') nameRef.current?.focus();
  }, [error]);

  async function join(event: React.FormEvent) {
    event.preventDefault();
    if (needsName && !name.trim()) return setError({ code: 'missing_data', field: 'name' });
    if (needsPassword && !password) return setError({ code: 'incorrect_password', field: 'password' });
    setJoining(true);
    setError(null);
    const ready = preview.settled();
    const [prepared, handoffKey] = await Promise.all([roomPassword.prepare(password), keyRequest()]);
    const { answer, stream } = await postJoin(info.meetingId, {
      name: name.trim() || undefined,
      passwordProof: prepared?.proof,
      keyRequest: handoffKey ?? undefined,
    });
    if (answer.status !== 'ok' || typeof answer.token !== 'string') {
      stream?.abort.abort();
      setJoining(false);
      if (answer.errorCode === 'incorrect_password') roomPassword.refused();
      setError({ code: answer.errorCode ?? 'error_contact_us', field: answer.field as string | undefined });
      return;
    }
    roomPassword.accepted(prepared);
    if (!info.userName) rememberGuestName(name.trim());
    await ready;
    const tracks = preview.takeTracks();
    onJoined({
      join: answer as unknown as JoinAnswer,
      ...tracks,
      micOn: preview.micOn,
      passwordKey: prepared?.passwordKey ?? null,
      keyRequestPosted: handoffKey !== null,
      stream,
    });
  }

  const problem = preview.cameraProblem ?? preview.micProblem;
  const full = info.participantCount >= info.maxParticipants;

  return (
    <main className="mx-auto flex min-h-screen max-w-5xl flex-col items-center justify-center gap-8 px-4 py-10 text-white lg:flex-row">
      <section className="w-full max-w-xl" aria-label={t('preview')}>
        <div className="relative aspect-video overflow-hidden rounded-xl bg-slate-800">
          {preview.camera ? (
            <VideoView track={preview.camera} mirrored muted className="h-full w-full object-cover" />
          ) : (
            <p className="flex h-full items-center justify-center text-slate-300">{t('cameraIsOff')}</p>
          )}
          <div className="absolute inset-x-0 bottom-3 flex justify-center gap-3">
            <button
              type="button"
              className={`toolbar-button ${preview.micOn ? '' : 'toolbar-button-off'}`}
              aria-pressed={!preview.micOn}
              aria-label={preview.micOn ? t('muteMicrophone') : t('unmuteMicrophone')}
              disabled={!preview.microphone}
              onClick={() => preview.setMicOn(!preview.micOn)}
            >
              <MicIcon off={!preview.micOn} />
            </button>
            <button
              type="button"
              className={`toolbar-button ${preview.cameraOn ? '' : 'toolbar-button-off'}`}
              aria-pressed={!preview.cameraOn}
              aria-label={preview.cameraOn ? t('turnCameraOff') : t('turnCameraOn')}
              onClick={() => preview.setCameraOn(!preview.cameraOn)}
            >
              <CameraIcon off={!preview.cameraOn} />
            </button>
            <button type="button" className="toolbar-button" aria-label={t('background.title')} aria-haspopup="dialog" onClick={background.open}>
              <BackgroundIcon />
            </button>
          </div>
          {background.isOpen && (
            <Suspense fallback={null}>
              <BackgroundDialog onChoose={background.choose} cameraOn={preview.cameraOn} onClose={background.close} />
            </Suspense>
          )}
        </div>
        <div className="mt-3 flex items-center gap-2 text-sm text-slate-300">
          <span>{t('microphoneLevel')}</span>
          <meter className="h-2 flex-1" min={0} max={1} value={preview.level} aria-label={t('microphoneLevel')} />
        </div>
        {problem && (
          <p role="status" className="mt-3 rounded-md bg-amber-100 px-3 py-2 text-sm text-amber-900">
            {t(`problem.${problem}`)}
          </p>
        )}
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <DeviceSelect
            label={t('microphone')}
            devices={preview.audioInputs}
            value={preview.audioInput || preview.microphone?.getSettings().deviceId || ''}
            onChange={preview.setAudioInput}
          />
          <DeviceSelect
            label={t('camera')}
            devices={preview.videoInputs}
            value={preview.videoInput || preview.camera?.getSettings().deviceId || ''}
            onChange={preview.setVideoInput}
          />
        </div>
        <div className="mt-3">
          <NoiseSuppressionToggle tone="dark" />
        </div>
      </section>

      <section className="w-full max-w-sm rounded-xl bg-white p-6 text-slate-900 shadow-lg">
        <h1 className="text-xl font-bold">{info.roomName}</h1>
        <p className="mt-1 text-sm text-slate-600">{info.participantCount === 0 ? t('nobodyHere') : t('peopleHere', { count: info.participantCount })}</p>
        <form className="mt-5 flex flex-col gap-4" onSubmit={join} noValidate>
          {needsName && (
            <Field
              label={t('yourName')}
              ref={nameRef}
              value={name}
              maxLength={MAX_NAME_LENGTH}
              autoComplete="name"
              onChange={(event) => setName(event.target.value)}
              error={error?.field === 'name' ? t('nameRequired') : undefined}
            />
          )}
          {needsPassword && (
            <Field
              label={t('meetingPassword')}
              ref={passwordRef}
              type="password"
              value={password}
              autoComplete="off"
              onChange={(event) => setPassword(event.target.value)}
              hint={info.isHost ? t('hostPasswordHint') : undefined}
              error={error?.field === 'password' ? error.code : undefined}
            />
          )}
          {error && error.field !== 'password' && error.field !== 'name' && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {errorText(error.code)}
            </p>
          )}
          {full && !error && <p className="text-sm text-amber-800">{t('roomMayBeFull')}</p>}
          <button type="submit" className="button-primary" disabled={joining}>
            {info.askToJoin && !info.isHost ? t('askToJoin') : t('joinNow')}
          </button>
          {!preview.microphone && !preview.camera && <p className="text-xs text-slate-500">{t('joinAsListener')}</p>}
        </form>
      </section>
    </main>
  );
}

function DeviceSelect({ label, devices, value, onChange }: { label: string; devices: MediaDeviceInfo[]; value: string; onChange: (id: string) => void }) {
  const id = useId();
  if (devices.length === 0) return null;
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id} className="text-slate-300">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="rounded-md border border-slate-600 bg-slate-800 px-2 py-1.5 text-white"
      >
        {devices.map((device, index) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || `${label} ${index + 1}`}
          </option>
        ))}
      </select>
    </div>
  );
}

const GUEST_NAME_KEY = 'enclave.guestName';

function readGuestName(): string {
  try {
    return localStorage.getItem(GUEST_NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

function rememberGuestName(name: string) {
  try {
    localStorage.setItem(GUEST_NAME_KEY, name);
  } catch {
    // private mode: nothing remembered
  }
}
