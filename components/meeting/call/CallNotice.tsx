'use client';

import { useTranslations } from 'next-intl';
import type { MeetingSession, SessionState } from '@/lib/meeting/client/call/session';

/**
 * One notice at the top: a passing message of ours, else what the host did to us, else (for the
 * host, with the people panel closed) that someone is waiting.
 */
export function CallNotice({
  session,
  state,
  flash,
  peoplePanelOpen,
  onShowPeople,
}: {
  session: MeetingSession;
  state: SessionState;
  flash: string | null;
  peoplePanelOpen: boolean;
  onShowPeople: () => void;
}) {
  const t = useTranslations('Meeting');
  const knocking = state.self.isHost && state.knocks.length > 0 && !peoplePanelOpen;
  if (!flash && !state.hostNotice && !knocking) return null;
  return (
    <div
      role="status"
      className="fixed top-[calc(3.5rem+var(--chunk-error-height,0px))] left-1/2 z-20 flex -translate-x-1/2 items-center gap-3 rounded-lg bg-white px-4 py-2 text-slate-900 shadow-lg"
    >
      {flash ??
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
            <button type="button" className="button-primary px-2 py-1 text-sm" onClick={onShowPeople}>
              {t('view')}
            </button>
          </>
        ))}
    </div>
  );
}
