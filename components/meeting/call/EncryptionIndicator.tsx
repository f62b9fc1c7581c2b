'use client';

import { useEffect, useState } from 'react';
import { useTranslations } from 'next-intl';
import type { SafetyCode } from '@/lib/meeting/e2ee/safety-code';
import type { EncryptionState, MeetingSession, RemotePeer } from '@/lib/meeting/client/call/session';
import type { MediaRoute } from '@/lib/meeting/client/call/route-pin';
import { Dialog } from '@/components/dialog/Dialog';

/**
 * The persistent encryption indicator (docs/e2ee-crypto.md "Safety code"): what protects the call, and the
 * codes to compare with each participant. It cannot be turned off: a call without frame
 * encryption is never admitted.
 */
export function EncryptionIndicator({
  session,
  encryption,
  peers,
  route,
}: {
  session: MeetingSession;
  encryption: EncryptionState;
  peers: RemotePeer[];
  route: MediaRoute;
}) {
  const t = useTranslations('Meeting');
  const [open, setOpen] = useState(false);
  const tone = encryption.status === 'on' ? 'bg-emerald-700' : encryption.status === 'wrong-key' ? 'bg-red-700' : 'bg-slate-700';
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className={`ml-auto flex shrink-0 items-center gap-1.5 rounded px-2 py-1 text-xs font-semibold whitespace-nowrap ${tone}`}
        data-testid="encryption-indicator"
        data-status={encryption.status}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-3.5 w-3.5" fill="currentColor">
          <path d="M10 1a4 4 0 0 0-4 4v3H5a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7a2 2 0 0 0-2-2h-1V5a4 4 0 0 0-4-4Zm-2 7V5a2 2 0 1 1 4 0v3H8Z" />
        </svg>
        {t(`e2ee.status.${encryption.status}`)}
      </button>
      {open && <EncryptionDialog session={session} encryption={encryption} peers={peers} route={route} onClose={() => setOpen(false)} />}
    </>
  );
}

function EncryptionDialog({
  session,
  encryption,
  peers,
  route,
  onClose,
}: {
  session: MeetingSession;
  encryption: EncryptionState;
  peers: RemotePeer[];
  /** Where the media goes now: on a phone the header has no room for it, so it is said here too. */
  route: MediaRoute;
  onClose: () => void;
}) {
  const t = useTranslations('Meeting');
  const [codes, setCodes] = useState<Record<string, SafetyCode | null>>({});
  const verifiedIds = peers
    .filter((p) => p.keys === 'verified')
    .map((p) => p.id)
    .join(',');

  useEffect(() => {
    let cancelled = false;
    void Promise.all(
      verifiedIds
        .split(',')
        .filter(Boolean)
        .map(async (id) => [id, await session.safetyCode(id)] as const),
    ).then((entries) => !cancelled && setCodes(Object.fromEntries(entries)));
    return () => {
      cancelled = true;
    };
  }, [session, verifiedIds]);

  const explanation = encryption.status === 'on' ? t(`e2ee.source.${encryption.source ?? 'link'}`) : t(`e2ee.explain.${encryption.status}`);
  return (
    <Dialog title={t('e2ee.title')} onClose={onClose}>
      <div className="flex flex-col gap-4 text-sm text-slate-700">
        <p>{explanation}</p>
        <p data-testid="media-route-explained">{t(`route.${route}Hint`)}</p>
        {encryption.status === 'on' && encryption.password && <p>{t('e2ee.passwordInKey')}</p>}
        {peers.length > 0 && (
          <div>
            <h3 className="font-semibold text-slate-900">{t('e2ee.safetyCodes')}</h3>
            <p className="text-slate-600">{t('e2ee.safetyCodesHint')}</p>
            <ul className="mt-2 flex flex-col gap-3">
              {peers.map((peer) => (
                <li key={peer.id} data-participant={peer.id}>
                  <span className="font-medium text-slate-900">{peer.name}</span> <span className="text-slate-600">{t(`e2ee.peer.${peer.keys}`)}</span>
                  {codes[peer.id] && <Code code={codes[peer.id]!} />}
                  {session.handoffCode(peer.id) && (
                    <div className="mt-1">
                      <span className="text-slate-600">{t('e2ee.handoffCode')}</span>
                      <Code code={session.handoffCode(peer.id)!} testId="handoff-digits" />
                    </div>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )}
        <p className="text-slate-600">{t('e2ee.limits')}</p>
        <a href="/security" target="_blank" rel="noopener" className="text-brand underline">
          {t('e2ee.learnMore')}
        </a>
      </div>
    </Dialog>
  );
}

function Code({ code, testId = 'safety-digits' }: { code: Pick<SafetyCode, 'digits' | 'emoji'>; testId?: string }) {
  return (
    <div className="mt-1">
      <p className="text-2xl" aria-label={code.emoji.map(([, name]) => name).join(', ')}>
        {code.emoji.map(([emoji]) => emoji).join(' ')}
      </p>
      <p className="font-mono text-slate-900" data-testid={testId}>
        {code.digits}
      </p>
    </div>
  );
}
