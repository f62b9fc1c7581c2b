'use client';

import { useEffect, useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiPost } from '@/lib/api/browser';
import { Link } from '@/lib/i18n/links';

const KEPT = 'enclave.first-admin-token';

/** The link's token: from the fragment (kept for after a login), or as kept before it. */
function readToken(): string {
  const fromLink = window.location.hash.slice(1);
  if (fromLink) {
    sessionStorage.setItem(KEPT, fromLink);
    // Out of the address bar and history: the token is a credential.
    history.replaceState(null, '', window.location.pathname + window.location.search);
    return fromLink;
  }
  return sessionStorage.getItem(KEPT) ?? '';
}

/**
 * The setup link's page (issue 48, point 5): a logged-in person confirms and becomes the first
 * admin; a logged-out one is sent to log in and comes back here, the token kept in this tab.
 */
export function FirstAdminClaim({ loggedIn, alreadyAdmin }: { loggedIn: boolean; alreadyAdmin: boolean }) {
  const t = useTranslations('FirstAdmin');
  const [token, setToken] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'refused'>('idle');

  useEffect(() => {
    // The fragment exists only in the browser: read once after the first render.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setToken(readToken());
  }, []);

  async function claim() {
    setState('busy');
    const answer = await apiPost('/api/first-admin', { token });
    if (answer.status === 'ok') {
      sessionStorage.removeItem(KEPT);
      return setState('done');
    }
    setState('refused');
  }

  if (state === 'done' || alreadyAdmin) {
    return (
      <div className="flex flex-col items-start gap-4">
        <p role="status">{t('done')}</p>
        {/* A full load: the new session's role reaches the whole frame (the sidebar's Administration). */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a href="/admin/users" className="button-primary">
          {t('openAdmin')}
        </a>
      </div>
    );
  }
  if (token === null) return null;
  if (!token) return <p>{t('noToken')}</p>;
  if (!loggedIn) {
    return (
      <div className="flex flex-col items-start gap-4">
        <p>{t('loggedOut')}</p>
        <Link href="/login?next=%2Ffirst-admin" className="button-primary">
          {t('login')}
        </Link>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-4">
      <p>{t('intro')}</p>
      {state === 'refused' && (
        <p role="alert" className="text-red-700">
          {t('refused')}
        </p>
      )}
      <button type="button" className="button-primary" disabled={state === 'busy'} onClick={() => void claim()}>
        {t('claim')}
      </button>
    </div>
  );
}
