'use client';

import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { useTranslations } from 'next-intl';
import type { MeetingInfo } from '@/lib/meeting/protocol';
import { rememberedDevice } from '@/lib/meeting/client/media/devices';
import { isEnded } from '@/lib/meeting/client/call/meeting-state';
import { loadProbe } from '@/lib/meeting/client/probe-loader';
import { markRemoved } from '@/lib/meeting/client/call/removal-mark';
import type { MeetingSession, RemotePeer } from '@/lib/meeting/client/call/session';
import type { FileTransfers } from '@/lib/meeting/client/files/transfers';
import { FILES } from '@/lib/meeting/client/files/files-feature';
import type { Polls } from '@/lib/meeting/client/polls/polls';
import { POLLS } from '@/lib/meeting/client/polls/polls-feature';
import { usePollBadge } from '../features/polls/usePollBadge';
import { AudioSink } from '../VideoView';
import { ChatPanel, PeoplePanel } from './SidePanel';
import { buildTiles, floatingTile } from './call-layout';
import { CallEnded, WaitingScreen } from './CallEnded';
import { CallHeader } from './CallHeader';
import { CallNotice } from './CallNotice';
import { CallStage } from './CallStage';
import { CallToolbar } from '../toolbar/CallToolbar';
import { useCallControls, type Panel } from '../toolbar/useCallControls';
import { HostActions } from './HostActions';
import { RemoveParticipantDialog } from './RemoveParticipantDialog';
import { InvitePanel } from './InvitePanel';
import { useRecording } from '../features/recording/useRecording';
import { useCallDevices } from './useCallDevices';
import { useNoiseSuppression } from '../features/noise/useNoiseSuppression';
import { useJoinSettled } from '../features/noise/useJoinSettled';
import { useWhiteboard } from '../features/whiteboard/useWhiteboard';
import { useBreakout } from '../features/breakout/useBreakout';
import { useCaptions } from '../features/captions/useCaptions';

// Loaded when first opened, not with the call.
const DeviceSettings = lazy(() => import('./DeviceSettings'));
const PipView = lazy(() => import('./PipView'));
// Files: only once someone opens "Send a file" or an offer arrives (files/files-feature.ts).
const SendFileDialog = lazy(() => import('../features/files/SendFileDialog'));
const FileTransferList = lazy(() => import('../features/files/FileTransferList'));
// Polls: only once someone opens "Polls" or a poll arrives (polls/polls-feature.ts).
const PollsCorner = lazy(() => import('../features/polls/PollsCorner'));
// The whiteboard: only once someone opens it (its board code loads then, or when a peer's stroke comes).
const Whiteboard = lazy(() => import('../features/whiteboard/Whiteboard'));
// Breakout rooms: the host's dialog when opened, the banner while rooms are open.
const BreakoutDialog = lazy(() => import('../features/breakout/BreakoutDialog'));
const BreakoutBanner = lazy(() => import('../features/breakout/BreakoutBanner'));
// Captions: the dialog and the lines under the tiles, once someone opens "Captions" or a caption arrives.
const CaptionsDialog = lazy(() => import('../features/captions/CaptionsDialog'));
const TileCaption = lazy(() => import('../features/captions/TileCaption'));

const noSubscription = () => () => undefined;

interface CallViewProps {
  info: MeetingInfo;
  session: MeetingSession;
  onRejoin: () => void;
  /** The server runs with MEETING_TEST_PROBE=1: put the test probe on window (probe.ts). */
  testProbe: boolean;
}

/** The call: header, stage, side panel and toolbar around one MeetingSession; its end screens. */
export function CallView({ info, session, onRejoin, testProbe }: CallViewProps) {
  const t = useTranslations('Meeting');
  const full = useSyncExternalStore(session.subscribe, session.getState, session.getState);
  // While breakout rooms are open, the screen shows our room only (features/breakout/useBreakout.ts).
  const { state, breakout, feature: rooms } = useBreakout(session, full);
  const [breakoutOpen, setBreakoutOpen] = useState(false);
  const [panel, setPanel] = useState<Panel | null>(null);
  const [pinned, setPinned] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [devicesOpen, setDevicesOpen] = useState(false);
  const [files, setFiles] = useState<FileTransfers | null>(null);
  const [sendFileOpen, setSendFileOpen] = useState(false);
  const [polls, setPolls] = useState<Polls | null>(null);
  const [pollsOpen, setPollsOpen] = useState(false);
  /** The participant the host chose to remove, until they confirm or cancel. */
  const [removing, setRemoving] = useState<RemotePeer | null>(null);
  const [inviteClosed, setInviteClosed] = useState(false);
  const videos = useRef(new Map<string, HTMLVideoElement | null>());

  useEffect(() => {
    let detach: (() => void) | null = null;
    let ended = false;
    // Loaded since the page opened (MeetingApp): attached a microtask after this effect.
    if (testProbe) void loadProbe().then(({ attachProbe }) => (ended ? undefined : (detach = attachProbe(session))));
    const leave = () => session.leave();
    window.addEventListener('pagehide', leave);
    return () => {
      ended = true;
      window.removeEventListener('pagehide', leave);
      detach?.();
    };
  }, [session, testProbe]);

  useEffect(() => {
    if (state.phase === 'removed') markRemoved(info.meetingId);
  }, [state.phase, info.meetingId]);
  useEffect(() => session.setChatOpen(panel === 'chat'), [panel, session]);
  useEffect(() => session.features.use(FILES).onLoaded(setFiles), [session]);
  useEffect(() => session.features.use(POLLS).onLoaded(setPolls), [session]);
  const pollBadge = usePollBadge(polls);
  const openPolls = useCallback(
    () =>
      void session.features
        .use(POLLS)
        .load()
        .then(() => setPollsOpen(true)),
    [session],
  );

  const openSendFile = useCallback(() => {
    void session.features
      .use(FILES)
      .load()
      .then(() => setSendFileOpen(true));
  }, [session]);

  const tiles = useMemo(() => buildTiles(state, t('screenYours')), [state, t]);
  const recording = useRecording(session, tiles, videos, info.roomName);

  const flash = useCallback((message: string) => {
    setNotice(message);
    window.setTimeout(() => setNotice((current) => (current === message ? null : current)), 3000);
  }, []);

  const board = useWhiteboard(session, state.peers, flash);
  const boardOpen = board.open;

  const captions = useCaptions(session);
  const captionsOn = useSyncExternalStore(
    captions.captions?.subscribe ?? noSubscription,
    () => captions.captions?.getSnapshot().own === 'on',
    () => false,
  );
  const devices = useCallDevices(session, state.localCamera, flash);
  const joinSettled = useJoinSettled(state);
  useNoiseSuppression(session, devices.microphone, { ended: isEnded(state.phase), joinSettled }, flash);
  const floating = floatingTile(tiles);
  const { controls, pipWindow } = useCallControls({
    session,
    state,
    panel,
    setPanel,
    recording,
    openDevices: () => setDevicesOpen(true),
    polls: { open: openPolls, waiting: pollBadge },
    whiteboard: { open: boardOpen, toggle: board.toggle },
    captions: { open: captions.show, on: captionsOn },
    openBreakout: () => setBreakoutOpen(true),
    flash,
    pipVideo: () => (floating ? (videos.current.get(floating.key) ?? null) : null),
    roomName: info.roomName,
  });

  if (state.phase === 'waiting') return <WaitingScreen onCancel={() => session.leave()} />;
  if (state.phase === 'left' || state.phase === 'removed' || state.phase === 'denied' || state.phase === 'rejected') {
    return <CallEnded phase={state.phase} onRejoin={onRejoin} />;
  }

  return (
    // data-call-view: the reload prompt says that reloading leaves the call (app/globals.css); the
    // height leaves room for that prompt above the header (lib/chunk-watchdog.ts).
    <div data-call-view className="flex h-[calc(100dvh-var(--chunk-error-height,0px))] flex-col text-white">
      <CallHeader session={session} state={state} roomName={info.roomName} recordingSeconds={recording.active ? recording.seconds : null} />
      {breakout.open && (
        <Suspense fallback={null}>
          <BreakoutBanner
            key={breakout.open.round}
            feature={rooms}
            breakout={breakout}
            selfId={state.self.id}
            isHost={state.self.isHost}
            everyone={full.peers}
            onManage={() => setBreakoutOpen(true)}
          />
        </Suspense>
      )}
      <div className="flex min-h-0 flex-1">
        {/* With the whiteboard open, it takes the stage and the tiles move to a strip (below it, or beside it from lg). */}
        <div className={`min-h-0 min-w-0 flex-1 ${boardOpen ? 'flex-col lg:flex-row' : ''} ${panel ? 'hidden md:flex' : 'flex'}`}>
          {board.open && board.sync && (
            <Suspense fallback={<div className="flex-1" />}>
              <Whiteboard sync={board.sync} onClose={board.toggle} />
            </Suspense>
          )}
          <div className={boardOpen ? 'flex h-36 shrink-0 lg:h-auto lg:w-72' : 'flex min-h-0 min-w-0 flex-1'}>
            <CallStage
              session={session}
              state={state}
              tiles={tiles}
              pinned={pinned}
              onPin={(key) => setPinned((current) => (current === key ? null : key))}
              videoRef={(key, element) => videos.current.set(key, element)}
              onRemove={setRemoving}
              above={
                state.peers.length === 0 && !inviteClosed && !boardOpen && !breakout.open ? (
                  <InvitePanel onCopyLink={controls.copyLink} onClose={() => setInviteClosed(true)} />
                ) : undefined
              }
              hiddenBelowMd={panel !== null}
              captionFor={
                captions.captions
                  ? (id) => (
                      <Suspense fallback={null}>
                        <TileCaption captions={captions.captions!} participantId={id} />
                      </Suspense>
                    )
                  : undefined
              }
            />
          </div>
        </div>
        {panel && (
          // Below md the panel is the screen (the stage steps aside); from md it sits beside the stage.
          <aside className="w-full bg-white text-slate-900 md:w-80 md:shrink-0 lg:w-96">
            {panel === 'chat' ? (
              <ChatPanel messages={state.chat} selfId={state.self.id} onSend={(text) => session.sendChat(text)} onSendFile={openSendFile} />
            ) : (
              <PeoplePanel
                self={state.self}
                local={state.local}
                peers={state.peers}
                knocks={state.knocks}
                isHost={state.self.isHost}
                locked={state.locked}
                onAdmit={(id) => void session.hostAction('admit', id)}
                onDeny={(id) => void session.hostAction('deny', id)}
                onLock={(locked) => void session.setLocked(locked)}
                hostActions={(peer) => <HostActions session={session} peer={peer} onRemove={setRemoving} />}
              />
            )}
          </aside>
        )}
      </div>

      {files && (
        <Suspense fallback={null}>
          <FileTransferList files={files} />
        </Suspense>
      )}

      {/* In the column, between the stage and the toolbar: its note never covers a control. */}
      {polls && (
        <Suspense fallback={null}>
          <PollsCorner polls={polls} open={pollsOpen} onOpen={() => setPollsOpen(true)} onClose={() => setPollsOpen(false)} />
        </Suspense>
      )}

      {state.peers.map((peer) => peer.tracks.audio && <AudioSink key={peer.id} track={peer.tracks.audio} />)}

      <CallNotice session={session} state={state} flash={notice} peoplePanelOpen={panel === 'people'} onShowPeople={() => setPanel('people')} />

      <CallToolbar controls={controls} />
      {devicesOpen && (
        <Suspense fallback={null}>
          <DeviceSettings
            microphone={devices.microphone}
            camera={state.localCamera}
            cameraChoice={rememberedDevice('videoinput')}
            onSwitch={devices.switchInput}
            onReplaceCamera={(track) => session.setCamera(track)}
            onClose={() => setDevicesOpen(false)}
          />
        </Suspense>
      )}
      {breakoutOpen && state.self.isHost && (
        <Suspense fallback={null}>
          <BreakoutDialog feature={rooms} breakout={breakout} peers={full.peers} onClose={() => setBreakoutOpen(false)} />
        </Suspense>
      )}
      {captions.open && captions.captions && (
        <Suspense fallback={null}>
          <CaptionsDialog captions={captions.captions} isHost={state.self.isHost} selfName={state.self.name} onClose={captions.close} />
        </Suspense>
      )}
      {removing && (
        <RemoveParticipantDialog name={removing.name} onConfirm={() => session.hostAction('remove', removing.id)} onClose={() => setRemoving(null)} />
      )}
      {sendFileOpen && files && (
        <Suspense fallback={null}>
          <SendFileDialog files={files} onClose={() => setSendFileOpen(false)} />
        </Suspense>
      )}
      {pipWindow &&
        createPortal(
          <Suspense fallback={null}>
            <PipView tile={floating} muted={state.local.muted} onMute={controls.mute} onLeave={controls.leave} />
          </Suspense>,
          pipWindow.document.body,
        )}
    </div>
  );
}
