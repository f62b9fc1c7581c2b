'use client';

import { useTranslations } from 'next-intl';
import type { MeetingSession, SessionState } from '@/lib/meeting/client/session';
import { recorders, recordingClock } from './call-layout';
import { EncryptionIndicator } from './EncryptionIndicator';

/** The room's name and head count, lock, who records, reconnecting, and the encryption indicator. */
export function CallHeader({ session, state, roomName, recordingSeconds }: { session: MeetingSession; state: SessionState; roomName: string; recordingSeconds: number | null }) {
  const t = useTranslations('Meeting');
  const names = recorders(state, t('youShort'));
  return (
    <>
      <header className="flex flex-wrap items-center gap-3 px-4 py-2">
        <h1 className="truncate text-lg font-semibold">{roomName}</h1>
        <span className="text-sm text-slate-400">{t('peopleCount', { count: state.peers.length + 1 })}</span>
        {state.locked && <span className="rounded bg-slate-700 px-2 py-0.5 text-xs">{t('locked')}</span>}
        {names.length > 0 && (
          <span role="status" className="flex items-center gap-1.5 rounded bg-red-600 px-2 py-0.5 text-xs font-semibold">
            <span className="h-2 w-2 animate-pulse rounded-full bg-white" aria-hidden="true" />
            {t('recordingBy', { names: names.join(', ') })}
            {recordingSeconds !== null && <span className="tabular-nums">{recordingClock(recordingSeconds)}</span>}
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
    </>
  );
}
