'use client';

import { useEffect, useState } from 'react';
import { useTranslations } from 'next-intl';
import type { BreakoutFeature } from '@/lib/meeting/client/breakout/breakout-feature';
import { MAIN, roomOf, type BreakoutState } from '@/lib/meeting/client/breakout/breakout-rules';
import type { RemotePeer } from '@/lib/meeting/client/call/session';

/** Seconds left until `at`, ticking once a second. */
function useSecondsUntil(at: number | null) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * While breakout rooms are open: which room we are in, the host's message and countdown, "Ask for
 * help" for a participant; for the host, who asked for help and a way back to the rooms' dialog.
 */
export default function BreakoutBanner({
  feature,
  breakout,
  selfId,
  isHost,
  everyone,
  onManage,
}: {
  feature: BreakoutFeature;
  breakout: BreakoutState;
  selfId: string;
  isHost: boolean;
  /** All the call's peers, rooms or not: the names for the host's help list. */
  everyone: RemotePeer[];
  onManage: () => void;
}) {
  const t = useTranslations('Breakout');
  const [asked, setAsked] = useState(false);
  const seconds = useSecondsUntil(breakout.closingAt);
  if (!breakout.open) return null;
  const room = roomOf(breakout.open, selfId);
  const roomName = (index: number) => t('roomName', { number: index + 1 });
  const nameOf = (id: string) => everyone.find((peer) => peer.id === id)?.name ?? '?';
  return (
    <section aria-label={t('title')} className="flex flex-wrap items-center justify-center gap-x-4 gap-y-1 bg-sky-900 px-3 py-2 text-sm text-white">
      <p role="status" className="font-semibold">
        {isHost
          ? room === MAIN
            ? t('hostOpen')
            : t('hostVisiting', { room: roomName(room) })
          : room === MAIN
            ? t('inMain')
            : t('inRoom', { room: roomName(room) })}
      </p>
      {breakout.said && <p role="status">{t('fromHost', { text: breakout.said.text })}</p>}
      {seconds !== null && <p role="timer">{t('closingIn', { seconds })}</p>}
      {!isHost && room !== MAIN && (
        <button
          type="button"
          className="rounded-full bg-white px-3 py-1 font-semibold text-sky-900 hover:bg-sky-100 disabled:opacity-70"
          disabled={asked}
          onClick={() => {
            feature.askForHelp();
            setAsked(true);
          }}
        >
          {asked ? t('helpSent') : t('askHelp')}
        </button>
      )}
      {isHost && (
        <>
          {breakout.help.length > 0 && (
            <ul role="status" className="flex flex-wrap gap-2">
              {breakout.help.map((ask) => (
                <li key={ask.peerId} className="rounded-full bg-amber-300 px-2 py-0.5 text-slate-900">
                  {t('helpFrom', { name: nameOf(ask.peerId), room: roomName(ask.room) })}
                </li>
              ))}
            </ul>
          )}
          {room !== MAIN && (
            <button type="button" className="rounded-full bg-white px-3 py-1 font-semibold text-sky-900 hover:bg-sky-100" onClick={() => feature.visit(MAIN)}>
              {t('leaveVisit')}
            </button>
          )}
          <button type="button" className="rounded-full bg-white px-3 py-1 font-semibold text-sky-900 hover:bg-sky-100" onClick={onManage}>
            {t('manage')}
          </button>
        </>
      )}
    </section>
  );
}
