'use client';

import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/modal/Dialog';
import { useApp } from '@/components/AppContext';
import { Link } from '@/lib/i18n/navigation';

/** The account modal; its four steps (profile, QR code, code, recovery code) come with accounts. */
export function AccountModal({ close }: { close: () => void }) {
  const t = useTranslations('Account');
  const { user } = useApp();
  return (
    <Dialog title={t('title')} onClose={close}>
      {user && (
        <p>
          {t('signedInAs', { name: `${user.firstName} ${user.lastName}` })}
          <span className="block text-sm text-slate-500">{user.email}</span>
        </p>
      )}
      <Link href="/settings" onClick={close} className="button-primary mt-4">
        {t('openSettings')}
      </Link>
    </Dialog>
  );
}
