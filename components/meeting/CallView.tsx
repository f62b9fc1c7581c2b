'use client';

import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslations } from 'next-intl';
import { Link } from '@/lib/i18n/navigation';
import { useModal } from '@/components/modal/ModalProvider';
import type { MeetingInfo } from '@/lib/meeting/protocol';
import { getCamera, getScreen } from '@/lib/meeting/client/media';
import { REACTIONS } from '@/lib/meeting/client/peer-messages';
import { attachProbe } from '@/lib/meeting/client/probe';
import type { MeetingSession, RemotePeer, SessionState } from '@/lib/meeting/client/session';
import { Centered } from './MeetingApp';
import { AudioSink } from './VideoView';
import { ChatPanel, PeoplePanel } from './SidePanel';
import { EncryptionIndicator } from './EncryptionIndicator';
import { Tile, type TileModel } from './Tile';
import { useRecording } from './useRecording';
import { useShortcuts } from './useShortcuts';
import {
  CameraIcon,
  ChatIcon,
  HandIcon,
  LeaveIcon,
  LinkIcon,
  MicIcon,
  PeopleIcon,
  RecordIcon,
  ScreenIcon,
  SmileIcon,
} from './icons';

interface CallViewProps {
  info: MeetingInfo;
  session: MeetingSession;
  onRejoin: () => void;
  /** The server runs with MEETING_TEST_PROBE=1: put the test probe on window (probe.ts). */
  testProbe: boolean;
}

export function CallView({ info, session, onRejoin, testProbe }: CallViewProps) {
  const t = useTranslations('Meeting');
  const modal = useModal();
  const state = useSyncExternalStore(session.subscribe, session.getState, session.getState);
  const [panel, setPanel] = useState<'chat' | 'people' | null>(null);
  const [pinned, setPinned] = useState<string | null>(null);
  const [showReactions, setShowReactions] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const videos = useRef(new Map<string, HTMLVideoElement | null>());

  useEffect(() => {
    const detach = testProbe ? attachProbe(session) : null;
    const leave = () => session.leave();
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      detach?.();
    };
  }, [session, testProbe]);

  useEffect(() => session.setChatOpen(panel === 'chat'), [panel, session]);

  const tiles = useMemo(() => buildTiles(state, t('screenYours')), [state, t]);
  const recording = useRecording(session, tiles, videos, info.roomName);

  const flash = useCallback((message: string) => {
    setNotice(message);
    window.setTimeout(() => setNotice((current) => (current === message ? null : current)), 3000);
  }, []);

  const toggleMute = useCallback(() => {
    if (!session.localTrack('audio')) return flash(t('noMicrophone'));
    session.setMuted(!session.getState().local.muted);
  }, [session, flash, t]);

  const toggleCamera = useCallback(async () => {
    if (session.localTrack('camera')) {
      session.localTrack('camera')?.stop();
      await session.setCamera(null);
      return;
    }
    try {
      await session.setCamera(await getCamera());
    } catch {
      flash(t('problem.denied'));
    }
  }, [session, flash, t]);

  const toggleScreen = useCallback(async () => {
    const current = session.localTrack('screen');
    if (current) {
      current.stop();
      await session.setScreen(null);
      return;
    }
    try {
      const track = await getScreen();
      // The browser's own "Stop sharing" button ends the track.
      track.addEventListener('ended', () => {
        if (session.localTrack('screen') === track) void session.setScreen(null);
      });
      await session.setScreen(track);
    } catch {
      // the user cancelled the picker
    }
  }, [session]);

  const toggleHand = useCallback(() => session.setHand(!session.getState().local.hand), [session]);
  const togglePanel = (which: 'chat' | 'people') => setPanel((current) => (current === which ? null : which));

  useShortcuts({
    toggleMute,
    toggleCamera: () => void toggleCamera(),
    toggleHand,
    toggleChat: () => togglePanel('chat'),
  });

  /** The full link, with the key in its fragment: whoever opens it needs no handoff (E2EE.md). */
  async function copyLink() {
    const link = `${window.location.origin}${window.location.pathname}${session.keyFragment() ?? ''}`;
    try {
      await navigator.clipboard.writeText(link);
      flash(t('linkCopied'));
    } catch {
      flash(link);
    }
  }

  if (state.phase === 'waiting') {
    return (
      <Centered title={t('waitingTitle')}>
        <p>{t('waitingText')}</p>
        <button type="button" className="button-secondary mt-6" onClick={() => session.leave()}>
          {t('cancel')}
        </button>
      </Centered>
    );
  }
  if (state.phase === 'left' || state.phase === 'removed' || state.phase === 'denied' || state.phase === 'rejected') {
    return (
      <Centered title={t(`ended.${state.phase}`)}>
        <div className="mt-6 flex justify-center gap-3">
          {state.phase === 'left' && (
            <>
              <button type="button" className="button-primary" onClick={onRejoin}>
                {t('rejoin')}
              </button>
              <button type="button" className="button-secondary" onClick={() => modal.open('rate')}>
                {t('rateCall')}
              </button>
            </>
          )}
          <Link href="/" className="button-secondary">
            {t('home')}
          </Link>
        </div>
      </Centered>
    );
  }

  const isHost = state.self.isHost;
  const stageTile = pinned ? tiles.find((tile) => tile.key === pinned) : tiles.find((tile) => tile.kind === 'screen' && !tile.isSelf);
  const recorders = [
    ...(state.local.recording ? [t('youShort')] : []),
    ...state.peers.filter((peer) => peer.media.recording).map((peer) => peer.name),
  ];
  const hostActions = (peer: RemotePeer, inMenu = false) => (
    <>
      <button type="button" role={inMenu ? 'menuitem' : undefined} className="px-3 py-1.5 text-left hover:bg-slate-100" onClick={() => void session.hostAction('mute', peer.id)}>
        {t('muteParticipant', { name: peer.name })}
      </button>
      <button type="button" role={inMenu ? 'menuitem' : undefined} className="px-3 py-1.5 text-left hover:bg-slate-100" onClick={() => void session.hostAction('ask-unmute', peer.id)}>
        {t('askToUnmute', { name: peer.name })}
      </button>
      <button type="button" role={inMenu ? 'menuitem' : undefined} className="px-3 py-1.5 text-left text-red-700 hover:bg-red-50" onClick={() => void session.hostAction('remove', peer.id)}>
        {t('remove', { name: peer.name })}
      </button>
    </>
  );
  const renderTile = (tile: TileModel, large: boolean) => {
    const peer = tile.isSelf ? null : state.peers.find((p) => p.id === tile.participantId);
    return (
      <Tile
        key={tile.key}
        tile={tile}
        large={large}
        pinned={pinned === tile.key}
        onPin={() => setPinned((current) => (current === tile.key ? null : tile.key))}
        onVisible={!tile.isSelf && tile.kind === 'camera' ? (visible) => session.setPeerVisible(tile.participantId, visible) : undefined}
        videoRef={(element) => videos.current.set(tile.key, element)}
        hostMenu={isHost && peer && tile.kind === 'camera' ? hostActions(peer, true) : undefined}
      />
    );
  };

  return (
    <div className="flex h-screen flex-col text-white">
      <header className="flex flex-wrap items-center gap-3 px-4 py-2">
        <h1 className="truncate text-lg font-semibold">{info.roomName}</h1>
        <span className="text-sm text-slate-400">{t('peopleCount', { count: state.peers.length + 1 })}</span>
        {state.locked && <span className="rounded bg-slate-700 px-2 py-0.5 text-xs">{t('locked')}</span>}
        {recorders.length > 0 && (
          <span role="status" className="flex items-center gap-1.5 rounded bg-red-600 px-2 py-0.5 text-xs font-semibold">
            <span className="h-2 w-2 animate-pulse rounded-full bg-white" aria-hidden="true" />
            {t('recordingBy', { names: recorders.join(', ') })}
            {recording.active && <span className="tabular-nums">{formatDuration(recording.seconds)}</span>}
          </span>
        )}
        {state.signaling === 'reconnecting' && <span className="text-xs text-amber-300">{t('reconnecting')}</span>}
        <EncryptionIndicator session={session} encryption={state.encryption} peers={state.peers} />
      </header>
      {state.encryption.status === 'wrong-key' && (
        <p role="alert" className="mx-4 rounded-md bg-red-700 px-4 py-2 text-sm">
          {t('e2ee.wrongKey')}
        </p>
      )}

      <div className="flex min-h-0 flex-1">
        <main className="relative min-h-0 flex-1 p-3" aria-label={t('participants')}>
          {stageTile ? (
            <div className="flex h-full flex-col gap-3 lg:flex-row">
              <div className="min-h-0 flex-1">{renderTile(stageTile, true)}</div>
              <div className="flex gap-3 overflow-auto lg:w-64 lg:flex-col">
                {tiles.filter((tile) => tile.key !== stageTile.key).map((tile) => (
                  <div key={tile.key} className="w-48 shrink-0 lg:w-full">
                    {renderTile(tile, false)}
                  </div>
                ))}
              </div>
            </div>
          ) : (
            <div className={`grid h-full content-center gap-3 ${gridColumns(tiles.length)}`}>{tiles.map((tile) => renderTile(tile, false))}</div>
          )}
          <ul aria-live="polite" className="pointer-events-none absolute bottom-4 left-4 space-y-1">
            {state.reactions.map((reaction) => (
              <li key={reaction.id} className="rounded-full bg-black/60 px-3 py-1 text-sm">
                <span className="text-2xl">{reaction.emoji}</span> {reaction.from === state.self.id ? t('youShort') : reaction.name}
              </li>
            ))}
          </ul>
        </main>
        {panel && (
          <aside className="w-full max-w-sm bg-white text-slate-900 sm:w-80">
            {panel === 'chat' ? (
              <ChatPanel messages={state.chat} selfId={state.self.id} onSend={(text) => session.sendChat(text)} />
            ) : (
              <PeoplePanel
                self={state.self}
                local={state.local}
                peers={state.peers}
                knocks={state.knocks}
                isHost={isHost}
                locked={state.locked}
                onAdmit={(id) => void session.hostAction('admit', id)}
                onDeny={(id) => void session.hostAction('deny', id)}
                onLock={(locked) => void session.setLocked(locked)}
                hostActions={(peer) => hostActions(peer)}
              />
            )}
          </aside>
        )}
      </div>

      {state.peers.map((peer) => peer.tracks.audio && <AudioSink key={peer.id} track={peer.tracks.audio} />)}

      {(notice || state.hostNotice || (isHost && state.knocks.length > 0 && panel !== 'people')) && (
        <div role="status" className="fixed top-14 left-1/2 z-20 flex -translate-x-1/2 items-center gap-3 rounded-lg bg-white px-4 py-2 text-slate-900 shadow-lg">
          {notice ??
            (state.hostNotice ? (
              <>
                {state.hostNotice.kind === 'muted' ? t('hostMutedYou') : t('hostAsksUnmute')}
                {state.hostNotice.kind === 'unmute-request' && (
                  <button
                    type="button"
                    className="button-primary px-2 py-1 text-sm"
                    onClick={() => {
                      session.setMuted(false);
                      session.dismissHostNotice();
                    }}
                  >
                    {t('unmuteMicrophone')}
                  </button>
                )}
                <button type="button" className="text-sm underline" onClick={() => session.dismissHostNotice()}>
                  {t('dismiss')}
                </button>
              </>
            ) : (
              <>
                {t('someoneWaiting', { count: state.knocks.length })}
                <button type="button" className="button-primary px-2 py-1 text-sm" onClick={() => setPanel('people')}>
                  {t('view')}
                </button>
              </>
            ))}
        </div>
      )}

      <nav aria-label={t('controls')} className="flex flex-wrap items-center justify-center gap-2 px-4 py-3">
        <ToolbarButton label={state.local.muted ? t('unmuteMicrophone') : t('muteMicrophone')} shortcut="Ctrl+D" off={state.local.muted} onClick={toggleMute}>
          <MicIcon off={state.local.muted} />
        </ToolbarButton>
        <ToolbarButton label={state.local.cameraOff ? t('turnCameraOn') : t('turnCameraOff')} shortcut="Ctrl+E" off={state.local.cameraOff} onClick={() => void toggleCamera()}>
          <CameraIcon off={state.local.cameraOff} />
        </ToolbarButton>
        <ToolbarButton label={state.local.sharing ? t('stopSharing') : t('shareScreen')} active={state.local.sharing} onClick={() => void toggleScreen()}>
          <ScreenIcon />
        </ToolbarButton>
        <ToolbarButton label={state.local.hand ? t('lowerHand') : t('raiseHand')} shortcut="Ctrl+Alt+H" active={state.local.hand} onClick={toggleHand}>
          <HandIcon />
        </ToolbarButton>
        <div className="relative">
          <ToolbarButton label={t('react')} active={showReactions} onClick={() => setShowReactions(!showReactions)}>
            <SmileIcon />
          </ToolbarButton>
          {showReactions && (
            <div className="absolute bottom-14 left-1/2 flex -translate-x-1/2 gap-1 rounded-full bg-slate-700 p-1">
              {REACTIONS.map((emoji) => (
                <button
                  key={emoji}
                  type="button"
                  className="rounded-full p-2 text-xl hover:bg-slate-600"
                  aria-label={t('reactWith', { emoji })}
                  onClick={() => {
                    session.react(emoji);
                    setShowReactions(false);
                  }}
                >
                  {emoji}
                </button>
              ))}
            </div>
          )}
        </div>
        {recording.supported && (
          <ToolbarButton label={recording.active ? t('stopRecording') : t('startRecording')} active={recording.active} onClick={() => void recording.toggle()}>
            <RecordIcon off={!recording.active} />
          </ToolbarButton>
        )}
        <ToolbarButton label={t('copyLink')} onClick={() => void copyLink()}>
          <LinkIcon />
        </ToolbarButton>
        <ToolbarButton label={t('chat')} shortcut="Ctrl+Alt+C" active={panel === 'chat'} badge={state.unreadChat} onClick={() => togglePanel('chat')}>
          <ChatIcon />
        </ToolbarButton>
        <ToolbarButton label={t('people')} active={panel === 'people'} badge={isHost ? state.knocks.length : 0} onClick={() => togglePanel('people')}>
          <PeopleIcon />
        </ToolbarButton>
        <button type="button" className="ml-2 inline-flex h-12 items-center gap-2 rounded-full bg-red-600 px-5 font-semibold hover:bg-red-700" onClick={() => session.leave()}>
          <LeaveIcon />
          {t('leave')}
        </button>
      </nav>
    </div>
  );
}

interface ToolbarButtonProps {
  label: string;
  shortcut?: string;
  off?: boolean;
  active?: boolean;
  badge?: number;
  onClick: () => void;
  children: React.ReactNode;
}

function ToolbarButton({ label, shortcut, off, active, badge, onClick, children }: ToolbarButtonProps) {
  return (
    <button
      type="button"
      className={`toolbar-button relative ${off ? 'toolbar-button-off' : ''} ${active ? 'toolbar-button-active' : ''}`}
      aria-label={label}
      aria-pressed={off !== undefined ? off : active !== undefined ? active : undefined}
      aria-keyshortcuts={shortcut?.replace('Ctrl', 'Control')}
      title={shortcut ? `${label} (${shortcut})` : label}
      onClick={onClick}
    >
      {children}
      {!!badge && (
        <span className="absolute -top-1 -right-1 min-w-5 rounded-full bg-red-500 px-1 text-xs" aria-hidden="true">
          {badge}
        </span>
      )}
    </button>
  );
}

/** Self first, then everyone in order of arrival; shared screens as tiles of their own. */
function buildTiles(state: SessionState, screenYours: string): TileModel[] {
  const self: TileModel = {
    key: `${state.self.id}:camera`,
    participantId: state.self.id,
    name: state.self.name,
    kind: 'camera',
    track: state.localCamera,
    isSelf: true,
    isHost: state.self.isHost,
    muted: state.local.muted,
    hand: state.local.hand,
    quality: 'good',
    speaking: false,
  };
  const tiles: TileModel[] = [self];
  if (state.localScreen) tiles.push({ ...self, key: `${state.self.id}:screen`, kind: 'screen', name: screenYours, track: state.localScreen });
  for (const peer of state.peers) {
    const camera: TileModel = {
      key: `${peer.id}:camera`,
      participantId: peer.id,
      name: peer.name,
      kind: 'camera',
      track: peer.media.cameraOff ? null : (peer.tracks.camera ?? null),
      isSelf: false,
      isHost: peer.isHost,
      muted: peer.media.muted,
      hand: peer.media.hand,
      quality: peer.quality,
      speaking: state.activeSpeaker === peer.id,
    };
    tiles.push(camera);
    if (peer.media.sharing && peer.tracks.screen) tiles.push({ ...camera, key: `${peer.id}:screen`, kind: 'screen', track: peer.tracks.screen, speaking: false });
  }
  return tiles;
}

function gridColumns(count: number) {
  if (count <= 1) return 'grid-cols-1';
  if (count <= 4) return 'grid-cols-1 sm:grid-cols-2';
  if (count <= 9) return 'grid-cols-2 md:grid-cols-3';
  if (count <= 16) return 'grid-cols-3 lg:grid-cols-4';
  return 'grid-cols-4 lg:grid-cols-6';
}

export function formatDuration(seconds: number) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = String(m).padStart(h ? 2 : 1, '0');
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}
