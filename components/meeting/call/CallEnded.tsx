'use client';

import { useTranslations } from 'next-intl';
import { Link } from '@/lib/i18n/links';
import { useModal } from '@/components/dialog/ModalProvider';
import type { Phase } from '@/lib/meeting/client/call/session';
import { Centered } from '../Centered';

/** Waiting to be let in: only a way out. */
export function WaitingScreen({ onCancel }: { onCancel: () => void }) {
  const t = useTranslations('Meeting');
  return (
    <Centered title={t('waitingTitle')}>
      <p>{t('waitingText')}</p>
      <button type="button" className="button-secondary mt-6" onClick={onCancel}>
        {t('cancel')}
      </button>
    </Centered>
  );
}

/** The call is over: why, and after leaving on purpose, rejoin or rate it; removed, that there is no way back. */
export function CallEnded({ phase, onRejoin }: { phase: Extract<Phase, 'left' | 'removed' | 'denied' | 'rejected'>; onRejoin?: () => void }) {
  const t = useTranslations('Meeting');
  const modal = useModal();
  return (
    <Centered title={t(`ended.${phase}`)}>
      {phase === 'removed' && <p>{t('removedText')}</p>}
      <div className="mt-6 flex justify-center gap-3">
        {phase === 'left' && (
          <>
            <button type="button" className="button-primary" onClick={onRejoin}>
              {t('rejoin')}
            </button>
            <button type="button" className="button-secondary" onClick={() => modal.open('rate')}>
              {t('rateCall')}
            </button>
          </>
        )}
        <Link href="/" className="button-secondary">
          {t('home')}
        </Link>
      </div>
    </Centered>
  );
}
