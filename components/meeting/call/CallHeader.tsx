'use client';

import { useTranslations } from 'next-intl';
import type { MeetingSession, SessionState } from '@/lib/meeting/client/call/session';
import { recorders, recordingClock } from './call-layout';
import { EncryptionIndicator } from './EncryptionIndicator';

/** The room's name and head count, lock, who records, the media route, reconnecting, and the encryption indicator. */
export function CallHeader({
  session,
  state,
  roomName,
  recordingSeconds,
}: {
  session: MeetingSession;
  state: SessionState;
  roomName: string;
  recordingSeconds: number | null;
}) {
  const t = useTranslations('Meeting');
  const names = recorders(state, t('youShort'));
  return (
    <>
      {/* One row at any width (issue 33): the room's name and who records give way first. */}
      <header className="flex items-center gap-2 px-3 py-2 sm:gap-3 sm:px-4">
        <h1 className="min-w-0 truncate text-lg font-semibold">{roomName}</h1>
        <span className="shrink-0 text-sm whitespace-nowrap text-slate-400">{t('peopleCount', { count: state.peers.length + 1 })}</span>
        {state.locked && <span className="shrink-0 rounded bg-slate-700 px-2 py-0.5 text-xs">{t('locked')}</span>}
        {names.length > 0 && (
          <span role="status" className="flex min-w-0 items-center gap-1.5 rounded bg-red-600 px-2 py-0.5 text-xs font-semibold">
            <span className="h-2 w-2 shrink-0 animate-pulse rounded-full bg-white" aria-hidden="true" />
            <span className="truncate">{t('recordingBy', { names: names.join(', ') })}</span>
            {recordingSeconds !== null && <span className="shrink-0 tabular-nums">{recordingClock(recordingSeconds)}</span>}
          </span>
        )}
        {/* Where our media goes now (lib/meeting/client/call/route-decisions.ts): encrypted either way. From sm: a phone's one row has no room for it. */}
        <span
          className="hidden shrink-0 rounded bg-slate-800 px-2 py-0.5 text-xs whitespace-nowrap text-slate-300 sm:inline"
          title={t(`route.${state.mediaRoute}Hint`)}
          data-testid="media-route"
        >
          {t(`route.${state.mediaRoute}`)}
          <span className="sr-only">{` — ${t(`route.${state.mediaRoute}Hint`)}`}</span>
        </span>
        {state.signaling === 'reconnecting' && <span className="shrink-0 text-xs text-amber-300">{t('reconnecting')}</span>}
        <EncryptionIndicator session={session} encryption={state.encryption} peers={state.peers} route={state.mediaRoute} />
      </header>
      {state.encryption.status === 'wrong-key' && (
        <p role="alert" className="mx-4 rounded-md bg-red-700 px-4 py-2 text-sm">
          {t('e2ee.wrongKey')}
        </p>
      )}
      {state.encryption.staleLink && (
        // Why this link's key did not open the call, and what replaced it (issue 48).
        <p role="status" className="mx-4 rounded-md bg-slate-700 px-4 py-2 text-sm" data-testid="stale-link">
          {t('e2ee.staleLink')}
        </p>
      )}
    </>
  );
}
