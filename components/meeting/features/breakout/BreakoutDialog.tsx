'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import type { BreakoutFeature } from '@/lib/meeting/client/breakout/breakout-feature';
import { MAIN, MAX_ROOMS, MAX_TEXT, MIN_ROOMS, shuffled, splitEvenly, type BreakoutState } from '@/lib/meeting/client/breakout/breakout-rules';
import type { RemotePeer } from '@/lib/meeting/client/call/session';

const COUNTDOWNS = [0, 10, 30, 60];
const field = 'rounded-md border border-slate-300 px-2 py-1.5';

/**
 * The host's breakout rooms (loaded on first use): how many rooms and who goes where (dealt at
 * random, then changed per person), open; once open, a message to every room and "Close rooms",
 * now or after a countdown.
 */
export default function BreakoutDialog({
  feature,
  breakout,
  peers,
  onClose,
}: {
  feature: BreakoutFeature;
  breakout: BreakoutState;
  /** Everyone else in the call, rooms or not. */
  peers: RemotePeer[];
  onClose: () => void;
}) {
  const t = useTranslations('Breakout');
  const ids = peers.map((peer) => peer.id);
  const [count, setCount] = useState(MIN_ROOMS);
  const [rooms, setRooms] = useState<Record<string, number>>(() => splitEvenly(shuffled(ids), MIN_ROOMS));
  const [text, setText] = useState('');
  const [countdown, setCountdown] = useState(0);
  const roomName = (index: number) => t('roomName', { number: index + 1 });
  const options = Array.from({ length: count }, (_, index) => index);

  if (breakout.open) {
    const open = breakout.open;
    return (
      <Dialog title={t('title')} onClose={onClose}>
        <ul className="mb-4 grid gap-2 sm:grid-cols-2">
          {Array.from({ length: open.count }, (_, index) => (
            <li key={index} className="flex flex-col items-start gap-1 rounded-md bg-slate-100 px-3 py-2">
              <p className="font-semibold">{roomName(index)}</p>
              <p className="text-sm break-words">
                {peers
                  .filter((peer) => open.rooms[peer.id] === index)
                  .map((peer) => peer.name)
                  .join(', ') || t('empty')}
              </p>
              {/* The host joins the room's media, chat and key epoch (docs/meetings.md "Breakout rooms"). */}
              <button
                type="button"
                className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-50"
                onClick={() => feature.visit(open.visiting === index ? MAIN : index)}
              >
                {open.visiting === index ? t('leaveVisit') : t('visit', { room: roomName(index) })}
              </button>
            </li>
          ))}
        </ul>
        <form
          className="mb-4 flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (!text.trim()) return;
            feature.say(text);
            setText('');
          }}
        >
          <label className="text-sm font-medium" htmlFor="breakout-message">
            {t('message')}
          </label>
          <div className="flex gap-2">
            <input
              id="breakout-message"
              className={`${field} min-w-0 flex-1`}
              maxLength={MAX_TEXT}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
            <button type="submit" className="button-primary px-3 py-1.5">
              {t('send')}
            </button>
          </div>
        </form>
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t('closeAfter')}
            <select className={field} value={countdown} onChange={(event) => setCountdown(Number(event.target.value))}>
              {COUNTDOWNS.map((seconds) => (
                <option key={seconds} value={seconds}>
                  {seconds === 0 ? t('now') : t('afterSeconds', { seconds })}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="rounded-md bg-red-600 px-3 py-1.5 font-semibold text-white hover:bg-red-700"
            onClick={() => {
              feature.closeRooms(countdown);
              onClose();
            }}
          >
            {t('closeRooms')}
          </button>
        </div>
      </Dialog>
    );
  }

  const changeCount = (next: number) => {
    setCount(next);
    setRooms(splitEvenly(shuffled(ids), next));
  };
  return (
    <Dialog title={t('title')} onClose={onClose}>
      {ids.length === 0 ? (
        <p>{t('noPeers')}</p>
      ) : (
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            feature.open(count, Object.fromEntries(ids.map((id) => [id, rooms[id] ?? 0])));
            onClose();
          }}
        >
          <div className="flex flex-wrap items-end gap-2">
            <label className="flex flex-col gap-1 text-sm font-medium">
              {t('count')}
              <select className={field} value={count} onChange={(event) => changeCount(Number(event.target.value))}>
                {Array.from({ length: MAX_ROOMS - MIN_ROOMS + 1 }, (_, index) => MIN_ROOMS + index).map((value) => (
                  <option key={value} value={value}>
                    {value}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-100" onClick={() => changeCount(count)}>
              {t('split')}
            </button>
          </div>
          <ul className="flex max-h-72 flex-col gap-2 overflow-y-auto">
            {peers.map((peer) => (
              <li key={peer.id} className="flex items-center justify-between gap-2">
                <span className="min-w-0 truncate">{peer.name}</span>
                <select
                  className={field}
                  aria-label={t('roomFor', { name: peer.name })}
                  value={rooms[peer.id] ?? 0}
                  onChange={(event) => setRooms({ ...rooms, [peer.id]: Number(event.target.value) })}
                >
                  {options.map((index) => (
                    <option key={index} value={index}>
                      {roomName(index)}
                    </option>
                  ))}
                </select>
              </li>
            ))}
          </ul>
          <p className="text-sm text-slate-600">{t('privacy')}</p>
          <button type="submit" className="button-primary self-start px-4 py-2">
            {t('openRooms')}
          </button>
        </form>
      )}
    </Dialog>
  );
}
