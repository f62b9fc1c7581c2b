'use client';

import { useEffect, useRef, useState } from 'react';
import { meetingApiPath } from '@/lib/meeting-address';
import { useTranslations } from 'next-intl';
import type { MeetingInfo } from '@/lib/meeting/protocol';
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import { fragmentWithoutSecret, secretFromFragment } from '@/lib/meeting/e2ee/keys';
import { framePath, type FramePath } from '@/lib/meeting/client/frames/frame-backends';
import { meetingSupported } from '@/lib/meeting/client/media/capture';
import { MeetingCrypto, type PreparedKeys } from '@/lib/meeting/client/keys/meeting-crypto';
import { MeetingSession } from '@/lib/meeting/client/call/session';
import { FILES } from '@/lib/meeting/client/files/files-feature';
import { WHITEBOARD } from '@/lib/meeting/client/whiteboard/whiteboard-feature';
import { BREAKOUT } from '@/lib/meeting/client/breakout/breakout-feature';
import { linksUpToOf, routePin } from '@/lib/meeting/client/call/route-pin';
import { scheduleOf } from '@/lib/meeting/client/sfu/key-schedule';
import { loadProbe } from '@/lib/meeting/client/probe-loader';
import { wasRemoved } from '@/lib/meeting/client/call/removal-mark';
import { useErrorText } from '@/components/forms/useErrorText';
import { Lobby, type JoinResult } from './lobby/Lobby';
import { CallView } from './call/CallView';
import { CallEnded } from './call/CallEnded';
import { Centered } from './Centered';

type Stage =
  | { kind: 'loading' }
  | { kind: 'unsupported' }
  /** The host removed this browser from the meeting (removal-mark.ts): no lobby, no way back. */
  | { kind: 'removed' }
  | { kind: 'error'; code: string }
  | { kind: 'lobby'; info: MeetingInfo }
  | { kind: 'call'; info: MeetingInfo; session: MeetingSession };

/** /now/{id}: the lobby, then the call, all in the browser (docs/design.md "Meetings"). */
export function MeetingApp({ meetingId, testProbe = false }: { meetingId: string; testProbe?: boolean }) {
  const t = useTranslations('Meeting');
  const errorText = useErrorText();
  const [stage, setStage] = useState<Stage>({ kind: 'loading' });
  const secret = useRef<Bytes | null>(null);
  const frames = useRef<FramePath | null>(null);
  // Keys and the frame worker, made while the lobby shows: the click on Join does not wait for them.
  const prepared = useRef<Promise<PreparedKeys> | null>(null);

  function showLobby(info: MeetingInfo) {
    prepared.current ??= MeetingCrypto.prepare(frames.current ?? 'streams');
    // A failure here is met again (and reported) by the session, which then makes its own.
    prepared.current.catch(() => (prepared.current = null));
    setStage({ kind: 'lobby', info });
  }

  useEffect(() => {
    // Test servers only: the probe's code comes while the lobby shows, ready when the call starts.
    if (testProbe) void loadProbe();
  }, [testProbe]);

  useEffect(() => {
    // The room secret rides in the link's fragment, which browsers never send (docs/e2ee-crypto.md "Keys"):
    // keep it in memory only and take it out of the address bar, history and screenshots.
    const { hash, pathname, search } = window.location;
    secret.current ??= secretFromFragment(hash);
    if (hash) window.history.replaceState(window.history.state, '', `${pathname}${search}${fragmentWithoutSecret(hash)}`);
    let cancelled = false;
    void (async () => {
      // A call is never admitted without frame encryption (docs/e2ee-crypto.md "Safety code"). `?frames=script`
      // picks the standard worker path where both exist, to test it in Chromium.
      frames.current = framePath(new URLSearchParams(search).get('frames') === 'script' ? 'script' : undefined);
      if (!meetingSupported() || !frames.current) return setStage({ kind: 'unsupported' });
      if (wasRemoved(meetingId)) return setStage({ kind: 'removed' });
      const result = await loadInfo(meetingId);
      if (cancelled) return;
      if ('errorCode' in result) setStage({ kind: 'error', code: result.errorCode });
      else showLobby(result);
    })();
    return () => {
      cancelled = true;
    };
  }, [meetingId]);

  function startCall(info: MeetingInfo, result: JoinResult) {
    if (result.microphone) result.microphone.enabled = result.micOn;
    const session = new MeetingSession({
      meetingId,
      join: result.join,
      tracks: { audio: result.microphone, camera: result.camera, screen: null },
      local: { muted: !result.micOn || !result.microphone, cameraOff: !result.camera, sharing: false, hand: false, recording: false },
      secret: secret.current,
      framePath: frames.current ?? 'streams',
      askToJoin: info.askToJoin,
      passwordKey: result.passwordKey,
      prepared: prepared.current ?? undefined,
      keyRequestPosted: result.keyRequestPosted,
      stream: result.stream,
      mediaRoute: routePin(window.location.search, info.mediaRoute),
      linksUpTo: linksUpToOf(window.location.search),
      serverHasSfu: info.sfu,
      keySchedule: scheduleOf(window.location.search),
      features: [FILES, WHITEBOARD, BREAKOUT],
    });
    // Used once: a later visit of the lobby (rejoin) makes fresh ones.
    prepared.current = null;
    session.start();
    setStage({ kind: 'call', info, session });
  }

  /** Without the link's key, the join itself asks those present for it (protocol.ts keyRequest). */
  async function keyRequest(): Promise<string | null> {
    if (secret.current || !prepared.current) return null;
    const keys = await prepared.current.catch(() => null);
    return keys ? MeetingCrypto.keyRequest(keys) : null;
  }

  async function rejoin() {
    setStage({ kind: 'loading' });
    const result = await loadInfo(meetingId);
    if ('errorCode' in result) setStage({ kind: 'error', code: result.errorCode });
    else showLobby(result);
  }

  switch (stage.kind) {
    case 'loading':
      return <Centered>{t('loading')}</Centered>;
    case 'unsupported':
      return <Centered title={t('unsupportedTitle')}>{t('unsupported')}</Centered>;
    case 'removed':
      return <CallEnded phase="removed" />;
    case 'error':
      return (
        <Centered title={stage.code === 'room_not_found' ? t('notFoundTitle') : t('errorTitle')}>
          {stage.code === 'room_not_found' ? t('notFound') : errorText(stage.code)}
        </Centered>
      );
    case 'lobby':
      return <Lobby info={stage.info} onJoined={(result) => startCall(stage.info, result)} keyRequest={keyRequest} />;
    case 'call':
      return <CallView info={stage.info} session={stage.session} onRejoin={rejoin} testProbe={testProbe} />;
  }
}

async function loadInfo(meetingId: string): Promise<MeetingInfo | { errorCode: string }> {
  try {
    const response = await fetch(meetingApiPath(meetingId), { cache: 'no-store' });
    const body = (await response.json().catch(() => ({}))) as MeetingInfo & { errorCode?: string };
    if (!response.ok) return { errorCode: body.errorCode ?? 'error_contact_us' };
    return body;
  } catch {
    return { errorCode: 'error_contact_us' };
  }
}
