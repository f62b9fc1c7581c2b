'use client';

import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import { useApp } from '@/components/AppContext';
import { APP_VERSION } from '@/lib/version';
import { Link } from '@/lib/i18n/links';

export function AppInfoModal({ close }: { close: () => void }) {
  const t = useTranslations('AppInfo');
  const { brand } = useApp();
  return (
    <Dialog title={t('title', { brand })} onClose={close}>
      <p className="font-medium">{t('version', { version: APP_VERSION })}</p>
      <p className="mt-3 text-slate-700">{t('description')}</p>
      <p className="mt-2 text-slate-700">{t('encryption')}</p>
      {/* Issue 47: the build this server runs, and how to check it. */}
      <Link href="/security#build" className="mt-3 inline-block underline" onClick={close}>
        {t('aboutBuild')}
      </Link>
    </Dialog>
  );
}
