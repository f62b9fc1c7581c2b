'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { REACTIONS } from '@/lib/meeting/client/peer-messages';
import type { SessionState } from '@/lib/meeting/client/session';
import type { useRecording } from './useRecording';
import { CameraIcon, ChatIcon, HandIcon, LeaveIcon, LinkIcon, MicIcon, PeopleIcon, RecordIcon, ScreenIcon, SmileIcon } from './icons';

export type Panel = 'chat' | 'people';

interface CallToolbarProps {
  state: SessionState;
  panel: Panel | null;
  recording: ReturnType<typeof useRecording>;
  onMute: () => void;
  onCamera: () => void;
  onScreen: () => void;
  onHand: () => void;
  onReact: (emoji: string) => void;
  onCopyLink: () => void;
  onPanel: (panel: Panel) => void;
  onLeave: () => void;
}

/** The controls under the stage, with their shortcuts. */
export function CallToolbar({ state, panel, recording, onMute, onCamera, onScreen, onHand, onReact, onCopyLink, onPanel, onLeave }: CallToolbarProps) {
  const t = useTranslations('Meeting');
  const [showReactions, setShowReactions] = useState(false);
  const { local } = state;
  return (
    <nav aria-label={t('controls')} className="flex flex-wrap items-center justify-center gap-2 px-4 py-3">
      <ToolbarButton label={local.muted ? t('unmuteMicrophone') : t('muteMicrophone')} shortcut="Ctrl+D" off={local.muted} onClick={onMute}>
        <MicIcon off={local.muted} />
      </ToolbarButton>
      <ToolbarButton label={local.cameraOff ? t('turnCameraOn') : t('turnCameraOff')} shortcut="Ctrl+E" off={local.cameraOff} onClick={onCamera}>
        <CameraIcon off={local.cameraOff} />
      </ToolbarButton>
      <ToolbarButton label={local.sharing ? t('stopSharing') : t('shareScreen')} active={local.sharing} onClick={onScreen}>
        <ScreenIcon />
      </ToolbarButton>
      <ToolbarButton label={local.hand ? t('lowerHand') : t('raiseHand')} shortcut="Ctrl+Alt+H" active={local.hand} onClick={onHand}>
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
                  onReact(emoji);
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
      <ToolbarButton label={t('copyLink')} onClick={onCopyLink}>
        <LinkIcon />
      </ToolbarButton>
      <ToolbarButton label={t('chat')} shortcut="Ctrl+Alt+C" active={panel === 'chat'} badge={state.unreadChat} onClick={() => onPanel('chat')}>
        <ChatIcon />
      </ToolbarButton>
      <ToolbarButton label={t('people')} active={panel === 'people'} badge={state.self.isHost ? state.knocks.length : 0} onClick={() => onPanel('people')}>
        <PeopleIcon />
      </ToolbarButton>
      <button type="button" className="ml-2 inline-flex h-12 items-center gap-2 rounded-full bg-red-600 px-5 font-semibold hover:bg-red-700" onClick={onLeave}>
        <LeaveIcon />
        {t('leave')}
      </button>
    </nav>
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
