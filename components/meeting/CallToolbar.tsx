'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { REACTIONS } from '@/lib/meeting/client/call/peer-messages';
import type { SessionState } from '@/lib/meeting/client/call/session';
import type { useRecording } from './useRecording';
import { CameraIcon, ChatIcon, HandIcon, LeaveIcon, LinkIcon, MicIcon, MoreIcon, PeopleIcon, PipIcon, RecordIcon, ScreenIcon, SettingsIcon, SmileIcon } from './icons';

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
  /** Opens the camera, microphone and speaker dialog. */
  onDevices: () => void;
  /** Picture-in-picture, where the browser has it (usePictureInPicture). */
  pip: { open: boolean; toggle: () => void } | null;
  onLeave: () => void;
}

/** A control that sits in the bar from md (768 px) up and in the "More" menu below it. */
interface Secondary {
  key: string;
  label: string;
  icon: React.ReactNode;
  shortcut?: string;
  /** aria-pressed in the bar, aria-checked in the menu. */
  active?: boolean;
  badge?: number;
  /** In the bar only from lg (1024 px): between md and lg it stays in a "More" menu. */
  wide?: boolean;
  onClick: () => void;
}

/**
 * The controls under the stage, with their shortcuts: always one row (issue 33). Microphone,
 * camera, chat and Leave are always in the bar; below md the others (screen, hand, reactions,
 * recording, link, people) move into a "More" menu, each with the same label.
 */
export function CallToolbar({ state, panel, recording, onMute, onCamera, onScreen, onHand, onReact, onCopyLink, onPanel, onDevices, pip, onLeave }: CallToolbarProps) {
  const t = useTranslations('Meeting');
  const [showReactions, setShowReactions] = useState(false);
  const { local } = state;
  const knocks = state.self.isHost ? state.knocks.length : 0;

  const secondary: Secondary[] = [
    { key: 'screen', label: local.sharing ? t('stopSharing') : t('shareScreen'), icon: <ScreenIcon />, active: local.sharing, onClick: onScreen },
    { key: 'hand', label: local.hand ? t('lowerHand') : t('raiseHand'), icon: <HandIcon />, shortcut: 'Ctrl+Alt+H', active: local.hand, onClick: onHand },
    ...(recording.supported
      ? [{ key: 'record', label: recording.active ? t('stopRecording') : t('startRecording'), icon: <RecordIcon off={!recording.active} />, active: recording.active, onClick: () => void recording.toggle() }]
      : []),
    { key: 'link', label: t('copyLink'), icon: <LinkIcon />, onClick: onCopyLink },
    { key: 'people', label: t('people'), icon: <PeopleIcon />, active: panel === 'people', badge: knocks, onClick: () => onPanel('people') },
    ...(pip ? [{ key: 'pip', label: t('pip.open'), icon: <PipIcon />, active: pip.open, wide: true, onClick: pip.toggle }] : []),
    { key: 'devices', label: t('devices.open'), icon: <SettingsIcon />, wide: true, onClick: onDevices },
  ];
  const wide = secondary.filter((control) => control.wide);
  const inBar = (key: string) => secondary.find((control) => control.key === key)!;
  const barButton = (control: Secondary) => (
    <ToolbarButton key={control.key} label={control.label} shortcut={control.shortcut} active={control.active} badge={control.badge} onClick={control.onClick}>
      {control.icon}
    </ToolbarButton>
  );

  return (
    <nav aria-label={t('controls')} className="flex flex-nowrap items-center justify-center gap-2 px-3 py-3 sm:px-4">
      <ToolbarButton label={local.muted ? t('unmuteMicrophone') : t('muteMicrophone')} shortcut="Ctrl+D" off={local.muted} onClick={onMute}>
        <MicIcon off={local.muted} />
      </ToolbarButton>
      <ToolbarButton label={local.cameraOff ? t('turnCameraOn') : t('turnCameraOff')} shortcut="Ctrl+E" off={local.cameraOff} onClick={onCamera}>
        <CameraIcon off={local.cameraOff} />
      </ToolbarButton>
      <div className="hidden items-center gap-2 md:flex">
        {barButton(inBar('screen'))}
        {barButton(inBar('hand'))}
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
        {recording.supported && barButton(inBar('record'))}
        {barButton(inBar('link'))}
      </div>
      <ToolbarButton label={t('chat')} shortcut="Ctrl+Alt+C" active={panel === 'chat'} badge={state.unreadChat} onClick={() => onPanel('chat')}>
        <ChatIcon />
      </ToolbarButton>
      <div className="hidden md:flex">{barButton(inBar('people'))}</div>
      <div className="hidden items-center gap-2 lg:flex">{wide.map(barButton)}</div>
      <div className="md:hidden">
        <MoreMenu label={t('moreOptions')} reactLabel={t('react')} controls={secondary} badge={knocks} reactWith={(emoji) => t('reactWith', { emoji })} onReact={onReact} />
      </div>
      {/* md to lg: the bar has room for all but these. */}
      <div className="hidden md:block lg:hidden">
        <MoreMenu label={t('moreOptions')} controls={wide} badge={0} onReact={onReact} />
      </div>
      <button
        type="button"
        aria-label={t('leave')}
        className="inline-flex h-12 shrink-0 items-center gap-2 rounded-full bg-red-600 px-3.5 font-semibold hover:bg-red-700 sm:ml-2 sm:px-5"
        onClick={onLeave}
      >
        <LeaveIcon />
        {/* On a phone the red button alone says it; its name stays "Leave". */}
        <span aria-hidden="true" className="hidden sm:inline">
          {t('leave')}
        </span>
      </button>
    </nav>
  );
}

/**
 * The menu button pattern (WAI-ARIA APG): opens with Enter, Space or ArrowUp/Down and focuses an
 * item; arrows, Home and End move; Escape closes and gives focus back to the button; Tab or a
 * click outside closes it.
 */
function MoreMenu({
  label,
  reactLabel,
  controls,
  badge,
  reactWith,
  onReact,
}: {
  label: string;
  /** Without it, the menu has no reactions (the md–lg menu: the bar has them). */
  reactLabel?: string;
  controls: Secondary[];
  badge: number;
  reactWith?: (emoji: string) => string;
  onReact: (emoji: string) => void;
}) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const id = useId();

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];
  useEffect(() => {
    if (!open) return;
    const list = items();
    (open === 'last' ? list[list.length - 1] : list[0])?.focus();
    const outside = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const choose = (action: () => void) => {
    close(true);
    action();
  };

  function onMenuKey(event: React.KeyboardEvent) {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      list[(index + list.length) % list.length]?.focus();
    };
    if (event.key === 'ArrowDown' || event.key === 'ArrowRight') move(at + 1);
    else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(list.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') close(false);
  }

  const item = 'flex w-full items-center gap-3 rounded-md px-3 py-2.5 text-left text-sm hover:bg-slate-600 focus:bg-slate-600 focus:outline-none';
  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        className={`toolbar-button relative ${open ? 'toolbar-button-active' : ''}`}
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={!!open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? close(false) : setOpen('first'))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(event.key === 'ArrowUp' ? 'last' : 'first');
          }
        }}
      >
        <MoreIcon />
        {badge > 0 && (
          <span className="absolute -top-1 -right-1 min-w-5 rounded-full bg-red-500 px-1 text-xs" aria-hidden="true">
            {badge}
          </span>
        )}
      </button>
      {open && (
        <div
          ref={menu}
          id={id}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKey}
          className="absolute right-0 bottom-14 z-20 flex w-64 max-w-[calc(100vw-1.5rem)] flex-col rounded-xl bg-slate-700 p-1.5 text-white shadow-xl"
        >
          {controls.map((control) => (
            <button
              key={control.key}
              type="button"
              tabIndex={-1}
              role={control.active !== undefined ? 'menuitemcheckbox' : 'menuitem'}
              aria-checked={control.active}
              aria-keyshortcuts={control.shortcut?.replace('Ctrl', 'Control')}
              className={`${item} ${control.active ? 'text-sky-300' : ''}`}
              onClick={() => choose(control.onClick)}
            >
              {control.icon}
              <span className="flex-1">{control.label}</span>
              {!!control.badge && (
                <span className="min-w-5 rounded-full bg-red-500 px-1 text-center text-xs" aria-hidden="true">
                  {control.badge}
                </span>
              )}
            </button>
          ))}
          {reactLabel && reactWith && (
            <div role="group" aria-label={reactLabel} className="mt-1 flex justify-between border-t border-slate-600 pt-1.5">
              {REACTIONS.map((emoji) => (
                <button
                  key={emoji}
                  type="button"
                  tabIndex={-1}
                  role="menuitem"
                  aria-label={reactWith(emoji)}
                  className="rounded-full p-2 text-xl hover:bg-slate-600 focus:bg-slate-600 focus:outline-none"
                  onClick={() => choose(() => onReact(emoji))}
                >
                  {emoji}
                </button>
              ))}
            </div>
          )}
        </div>
      )}
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
      className={`toolbar-button relative shrink-0 ${off ? 'toolbar-button-off' : ''} ${active ? 'toolbar-button-active' : ''}`}
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
