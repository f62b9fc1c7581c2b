'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { REACTIONS } from '@/lib/meeting/client/call/peer-messages';
import { ReactionEmoji } from '../ReactionEmoji';
import {
  BreakoutIcon,
  CameraIcon,
  CaptionsIcon,
  ChatIcon,
  HandIcon,
  LeaveIcon,
  LinkIcon,
  MicIcon,
  PeopleIcon,
  PipIcon,
  PollIcon,
  RecordIcon,
  ScreenIcon,
  SettingsIcon,
  SmileIcon,
  WhiteboardIcon,
} from '../icons';
import { MoreMenu, type Secondary } from './MoreMenu';
import { ShortLabel, ToolbarButton } from './ToolbarButton';
import type { CallControls } from './useCallControls';

/**
 * The controls under the stage, with their shortcuts: always one row (issue 33). Microphone,
 * camera, chat and Leave are always in the bar; below md the others (screen, hand, reactions,
 * recording, link, people) move into a "More" menu, each with the same label.
 */
export function CallToolbar({ controls }: { controls: CallControls }) {
  const { state, panel, recording, pip } = controls;
  const t = useTranslations('Meeting');
  const short = useTranslations('Meeting.toolbarLabel');
  const polls = useTranslations('Polls');
  const board = useTranslations('Whiteboard');
  const rooms = useTranslations('Breakout');
  const captions = useTranslations('Captions');
  const [showReactions, setShowReactions] = useState(false);
  const { local } = state;
  const knocks = state.self.isHost ? state.knocks.length : 0;

  const secondary: Secondary[] = [
    {
      key: 'screen',
      short: short('screen'),
      label: local.sharing ? t('stopSharing') : t('shareScreen'),
      icon: <ScreenIcon />,
      active: local.sharing,
      onClick: controls.screen,
    },
    {
      key: 'hand',
      short: short('hand'),
      label: local.hand ? t('lowerHand') : t('raiseHand'),
      icon: <HandIcon />,
      shortcut: 'Ctrl+Alt+H',
      active: local.hand,
      onClick: controls.hand,
    },
    ...(recording.supported
      ? [
          {
            key: 'record',
            short: short('record'),
            label: recording.active ? t('stopRecording') : t('startRecording'),
            icon: <RecordIcon off={!recording.active} />,
            active: recording.active,
            onClick: () => void recording.toggle(),
          },
        ]
      : []),
    { key: 'link', short: short('link'), label: t('copyLink'), icon: <LinkIcon />, onClick: controls.copyLink },
    {
      key: 'people',
      short: short('people'),
      label: t('people'),
      icon: <PeopleIcon />,
      active: panel === 'people',
      badge: knocks,
      onClick: () => controls.togglePanel('people'),
    },
    ...(pip ? [{ key: 'pip', short: short('pip'), label: t('pip.open'), icon: <PipIcon />, active: pip.open, wide: true, onClick: pip.toggle }] : []),
    {
      key: 'polls',
      short: polls('short'),
      label: polls('title'),
      icon: <PollIcon />,
      badge: controls.polls.waiting,
      wide: true,
      onClick: controls.polls.open,
    },
    {
      key: 'whiteboard',
      short: board('short'),
      label: board('title'),
      icon: <WhiteboardIcon />,
      active: controls.whiteboard.open,
      wide: true,
      onClick: controls.whiteboard.toggle,
    },
    {
      key: 'captions',
      short: captions('short'),
      label: captions('title'),
      icon: <CaptionsIcon />,
      active: controls.captions.on,
      wide: true,
      onClick: controls.captions.open,
    },
    { key: 'devices', short: short('devices'), label: t('devices.open'), icon: <SettingsIcon />, wide: true, onClick: controls.devices },
    // The host's breakout rooms: in the bar from lg, in "More" below.
    ...(state.self.isHost
      ? [{ key: 'breakout', short: rooms('short'), label: rooms('title'), icon: <BreakoutIcon />, wide: true, onClick: controls.breakout }]
      : []),
  ];
  const wide = secondary.filter((control) => control.wide);
  const inBar = (key: string) => secondary.find((control) => control.key === key)!;
  const barButton = (control: Secondary) => (
    <ToolbarButton
      key={control.key}
      label={control.label}
      short={control.short}
      shortcut={control.shortcut}
      active={control.active}
      badge={control.badge}
      onClick={control.onClick}
    >
      {control.icon}
    </ToolbarButton>
  );

  return (
    // items-start: from md each round button has its word under it (issue 48); the buttons stay in line.
    <nav aria-label={t('controls')} className="flex flex-nowrap items-start justify-center gap-2 px-3 py-3 sm:px-4 md:gap-1.5">
      <ToolbarButton
        label={local.muted ? t('unmuteMicrophone') : t('muteMicrophone')}
        short={short('microphone')}
        shortcut="Ctrl+D"
        off={local.muted}
        onClick={controls.mute}
      >
        <MicIcon off={local.muted} />
      </ToolbarButton>
      <ToolbarButton
        label={local.cameraOff ? t('turnCameraOn') : t('turnCameraOff')}
        short={short('camera')}
        shortcut="Ctrl+E"
        off={local.cameraOff}
        onClick={controls.camera}
      >
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
                    controls.react(emoji);
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
      <ToolbarButton
        label={t('chat')}
        short={short('chat')}
        shortcut="Ctrl+Alt+C"
        active={panel === 'chat'}
        badge={state.unreadChat}
        onClick={() => controls.togglePanel('chat')}
      >
        <ChatIcon />
      </ToolbarButton>
      <div className="hidden md:flex">{barButton(inBar('people'))}</div>
      <div className="hidden items-start gap-1.5 lg:flex">{wide.map(barButton)}</div>
      <div className="md:hidden">
        <MoreMenu
          label={t('moreOptions')}
          short={short('more')}
          reactLabel={t('react')}
          controls={secondary}
          badge={knocks + controls.polls.waiting}
          reactWith={(emoji) => t('reactWith', { emoji })}
          onReact={controls.react}
        />
      </div>
      {/* md to lg: the bar has room for all but these. */}
      <div className="hidden md:block lg:hidden">
        <MoreMenu label={t('moreOptions')} short={short('more')} controls={wide} badge={controls.polls.waiting} onReact={controls.react} />
      </div>
      <div className="flex shrink-0 flex-col items-center gap-1 sm:ml-2">
        <button
          type="button"
          aria-label={t('leave')}
          className="inline-flex h-12 shrink-0 items-center gap-2 rounded-full bg-red-600 px-3.5 font-semibold hover:bg-red-700 sm:px-5 md:px-3.5 lg:px-5"
          onClick={controls.leave}
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
