'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { REACTIONS } from '@/lib/meeting/client/call/peer-messages';
import type { SessionState } from '@/lib/meeting/client/call/session';
import type { useRecording } from './useRecording';
import { ReactionEmoji } from './ReactionEmoji';
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
  /** The word under the icon in the bar (from md): short; `label` stays its name. */
  short: string;
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
  const short = useTranslations('Meeting.toolbarLabel');
  const [showReactions, setShowReactions] = useState(false);
  const { local } = state;
  const knocks = state.self.isHost ? state.knocks.length : 0;

  const secondary: Secondary[] = [
    { key: 'screen', short: short('screen'), label: local.sharing ? t('stopSharing') : t('shareScreen'), icon: <ScreenIcon />, active: local.sharing, onClick: onScreen },
    { key: 'hand', short: short('hand'), label: local.hand ? t('lowerHand') : t('raiseHand'), icon: <HandIcon />, shortcut: 'Ctrl+Alt+H', active: local.hand, onClick: onHand },
    ...(recording.supported
      ? [{ key: 'record', short: short('record'), label: recording.active ? t('stopRecording') : t('startRecording'), icon: <RecordIcon off={!recording.active} />, active: recording.active, onClick: () => void recording.toggle() }]
      : []),
    { key: 'link', short: short('link'), label: t('copyLink'), icon: <LinkIcon />, onClick: onCopyLink },
    { key: 'people', short: short('people'), label: t('people'), icon: <PeopleIcon />, active: panel === 'people', badge: knocks, onClick: () => onPanel('people') },
    ...(pip ? [{ key: 'pip', short: short('pip'), label: t('pip.open'), icon: <PipIcon />, active: pip.open, wide: true, onClick: pip.toggle }] : []),
    { key: 'devices', short: short('devices'), label: t('devices.open'), icon: <SettingsIcon />, wide: true, onClick: onDevices },
  ];
  const wide = secondary.filter((control) => control.wide);
  const inBar = (key: string) => secondary.find((control) => control.key === key)!;
  const barButton = (control: Secondary) => (
    <ToolbarButton key={control.key} label={control.label} short={control.short} shortcut={control.shortcut} active={control.active} badge={control.badge} onClick={control.onClick}>
      {control.icon}
    </ToolbarButton>
  );

  return (
    // items-start: from md each round button has its word under it (issue 48); the buttons stay in line.
    <nav aria-label={t('controls')} className="flex flex-nowrap items-start justify-center gap-2 px-3 py-3 sm:px-4 md:gap-1.5">
      <ToolbarButton label={local.muted ? t('unmuteMicrophone') : t('muteMicrophone')} short={short('microphone')} shortcut="Ctrl+D" off={local.muted} onClick={onMute}>
        <MicIcon off={local.muted} />
      </ToolbarButton>
      <ToolbarButton label={local.cameraOff ? t('turnCameraOn') : t('turnCameraOff')} short={short('camera')} shortcut="Ctrl+E" off={local.cameraOff} onClick={onCamera}>
        <CameraIcon off={local.cameraOff} />
      </ToolbarButton>
      <div className="hidden items-start gap-1.5 md:flex">
        {barButton(inBar('screen'))}
        {barButton(inBar('hand'))}
        <div className="relative">
          <ToolbarButton label={t('react')} short={short('react')} active={showReactions} onClick={() => setShowReactions(!showReactions)}>
            <SmileIcon />
          </ToolbarButton>
          {showReactions && (
            <div className="absolute bottom-full left-1/2 mb-2 flex -translate-x-1/2 gap-1 rounded-full bg-slate-700 p-1">
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
                  <ReactionEmoji emoji={emoji} />
                </button>
              ))}
            </div>
          )}
        </div>
        {recording.supported && barButton(inBar('record'))}
        {barButton(inBar('link'))}
      </div>
      <ToolbarButton label={t('chat')} short={short('chat')} shortcut="Ctrl+Alt+C" active={panel === 'chat'} badge={state.unreadChat} onClick={() => onPanel('chat')}>
        <ChatIcon />
      </ToolbarButton>
      <div className="hidden md:flex">{barButton(inBar('people'))}</div>
      <div className="hidden items-start gap-1.5 lg:flex">{wide.map(barButton)}</div>
      <div className="md:hidden">
        <MoreMenu label={t('moreOptions')} short={short('more')} reactLabel={t('react')} controls={secondary} badge={knocks} reactWith={(emoji) => t('reactWith', { emoji })} onReact={onReact} />
      </div>
      {/* md to lg: the bar has room for all but these. */}
      <div className="hidden md:block lg:hidden">
        <MoreMenu label={t('moreOptions')} short={short('more')} controls={wide} badge={0} onReact={onReact} />
      </div>
      <div className="flex shrink-0 flex-col items-center gap-1 sm:ml-2">
        <button
          type="button"
          aria-label={t('leave')}
          className="inline-flex h-12 shrink-0 items-center gap-2 rounded-full bg-red-600 px-3.5 font-semibold hover:bg-red-700 sm:px-5 md:px-3.5 lg:px-5"
          onClick={onLeave}
        >
          <LeaveIcon />
          {/* On a phone the red button alone says it; its name stays "Leave". From md to lg the bar
              is full: the word goes under the button, as the others' do. */}
          <span aria-hidden="true" className="hidden sm:inline md:hidden lg:inline">
            {t('leave')}
          </span>
        </button>
        <ShortLabel text={short('leave')} className="lg:hidden" />
      </div>
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
  short,
  reactLabel,
  controls,
  badge,
  reactWith,
  onReact,
}: {
  label: string;
  short: string;
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
    <div className="relative flex shrink-0 flex-col items-center gap-1">
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
      <ShortLabel text={short} />
      {open && (
        <div
          ref={menu}
          id={id}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKey}
          className="absolute right-0 bottom-full z-20 mb-2 flex w-64 max-w-[calc(100vw-1.5rem)] flex-col rounded-xl bg-slate-700 p-1.5 text-white shadow-xl"
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
                  <ReactionEmoji emoji={emoji} />
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
  /** The word under the icon from md (issue 48); `label` stays the button's name and tooltip. */
  short: string;
  shortcut?: string;
  off?: boolean;
  active?: boolean;
  badge?: number;
  onClick: () => void;
  children: React.ReactNode;
}

function ToolbarButton({ label, short, shortcut, off, active, badge, onClick, children }: ToolbarButtonProps) {
  return (
    <div className="flex shrink-0 flex-col items-center gap-1">
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
      <ShortLabel text={short} />
    </div>
  );
}

/**
 * A round button's word under it, from md (768 px) up where the bar has room (below, the "More"
 * menu names everything). Hidden from screen readers: the button's own name says it already.
 */
function ShortLabel({ text, className = '' }: { text: string; className?: string }) {
  return (
    <span aria-hidden="true" className={`hidden max-w-14 truncate text-center text-[11px] leading-tight text-slate-300 md:block ${className}`.trim()}>
      {text}
    </span>
  );
}
