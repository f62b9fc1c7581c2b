'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { ZoneNote } from '@/components/time/ZoneNote';
import { useClock } from '@/components/time/useClock';
import type { Participant } from '@/lib/meeting/protocol';
import { CHAT_MAX_LENGTH, type ChatMessage, type RemotePeer } from '@/lib/meeting/client/call/session';
import type { MediaState } from '@/lib/meeting/client/call/peer-messages';
import { HandIcon, MicIcon } from '../icons';

interface ChatPanelProps {
  messages: ChatMessage[];
  selfId: string;
  onSend: (text: string) => void;
  /** Opens "Send a file" (its code loads then). */
  onSendFile: () => void;
}

export function ChatPanel({ messages, selfId, onSend, onSendFile }: ChatPanelProps) {
  const t = useTranslations('Meeting');
  const [text, setText] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const inputId = useId();
  // The account's zone for a logged-in person, the browser's for a guest; the language's clock.
  const clock = useClock();

  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [messages.length]);

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    onSend(text);
    setText('');
  }

  return (
    <section aria-label={t('chat')} className="flex h-full flex-col">
      <div className="flex flex-wrap items-center justify-between gap-2 px-4 pt-4">
        <h2 className="text-lg font-semibold">{t('chat')}</h2>
        <button type="button" className="button-secondary px-2 py-1 text-sm" onClick={onSendFile}>
          {t('files.send')}
        </button>
      </div>
      <p className="px-4 text-xs text-slate-500">{t('chatPeerToPeer')}</p>
      <ZoneNote zone={clock.zone} className="px-4 text-xs text-slate-500" />
      <ol ref={list} aria-live="polite" className="flex-1 space-y-3 overflow-y-auto px-4 py-3">
        {messages.map((message) => (
          <li key={message.id}>
            <p className="text-xs text-slate-500">
              <span className="font-semibold text-slate-700">{message.from === selfId ? t('youShort') : message.name}</span>{' '}
              <time dateTime={new Date(message.at).toISOString()}>{clock.time(message.at)}</time>
            </p>
            <p className="break-words whitespace-pre-wrap">{message.text}</p>
          </li>
        ))}
      </ol>
      {/* The field has the whole width, the button its own line end (issue 48: beside it, the
          placeholder was cut in the 320 px panel). */}
      <form onSubmit={submit} className="flex flex-wrap justify-end gap-2 border-t border-slate-200 p-3">
        <label htmlFor={inputId} className="sr-only">
          {t('chatMessage')}
        </label>
        <input
          id={inputId}
          value={text}
          maxLength={CHAT_MAX_LENGTH}
          onChange={(event) => setText(event.target.value)}
          placeholder={t('chatPlaceholder')}
          className="w-full min-w-0 rounded-md border border-slate-300 px-3 py-2"
          autoComplete="off"
        />
        <button type="submit" className="button-primary" disabled={!text.trim()}>
          {t('send')}
        </button>
      </form>
    </section>
  );
}

interface PeoplePanelProps {
  self: Participant;
  local: MediaState;
  peers: RemotePeer[];
  knocks: Participant[];
  isHost: boolean;
  locked: boolean;
  onAdmit: (id: string) => void;
  onDeny: (id: string) => void;
  onLock: (locked: boolean) => void;
  hostActions: (peer: RemotePeer) => React.ReactNode;
}

export function PeoplePanel({ self, local, peers, knocks, isHost, locked, onAdmit, onDeny, onLock, hostActions }: PeoplePanelProps) {
  const t = useTranslations('Meeting');
  return (
    <section aria-label={t('people')} className="flex h-full flex-col overflow-y-auto p-4">
      <h2 className="text-lg font-semibold">{t('peopleCount', { count: peers.length + 1 })}</h2>
      {isHost && (
        <label className="mt-3 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={locked} onChange={(event) => onLock(event.target.checked)} />
          {t('lockMeeting')}
        </label>
      )}
      {knocks.length > 0 && (
        <div className="mt-4">
          <h3 className="text-sm font-semibold text-slate-600">{t('waitingToJoin')}</h3>
          <ul className="mt-2 space-y-2">
            {knocks.map((knock) => (
              <li key={knock.id} className="flex items-center justify-between gap-2 rounded-md bg-amber-50 px-3 py-2">
                <span className="truncate">{knock.name}</span>
                {isHost && (
                  <span className="flex gap-1">
                    <button type="button" className="button-primary px-2 py-1 text-sm" onClick={() => onAdmit(knock.id)}>
                      {t('admit')}
                    </button>
                    <button type="button" className="button-secondary px-2 py-1 text-sm" onClick={() => onDeny(knock.id)}>
                      {t('deny')}
                    </button>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      <h3 className="mt-4 text-sm font-semibold text-slate-600">{t('inTheCall')}</h3>
      <ul className="mt-2 space-y-1">
        <PersonRow name={t('you', { name: self.name })} isHost={self.isHost} media={local} />
        {peers.map((peer) => (
          <PersonRow key={peer.id} name={peer.name} isHost={peer.isHost} media={peer.media}>
            {isHost && !peer.isHost && hostActions(peer)}
          </PersonRow>
        ))}
      </ul>
    </section>
  );
}

function PersonRow({ name, isHost, media, children }: { name: string; isHost: boolean; media: MediaState; children?: React.ReactNode }) {
  const t = useTranslations('Meeting');
  return (
    <li className="flex flex-wrap items-center gap-2 rounded-md px-2 py-1.5 hover:bg-slate-100">
      <span className="min-w-0 flex-1 truncate">
        {name} {isHost && <span className="text-xs text-slate-500">({t('host')})</span>}
      </span>
      {media.hand && (
        <span title={t('handRaised')}>
          <HandIcon className="h-4 w-4 text-amber-600" />
          <span className="sr-only">{t('handRaised')}</span>
        </span>
      )}
      {media.muted && (
        <span title={t('microphoneOff')}>
          <MicIcon off className="h-4 w-4 text-red-600" />
          <span className="sr-only">{t('microphoneOff')}</span>
        </span>
      )}
      {children && <span className="flex gap-1">{children}</span>}
    </li>
  );
}
