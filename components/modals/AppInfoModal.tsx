'use client';

import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import { useApp } from '@/components/AppContext';
import { APP_VERSION } from '@/lib/version';

export function AppInfoModal({ close }: { close: () => void }) {
  const t = useTranslations('AppInfo');
  const { brand } = useApp();
  return (
    <Dialog title={t('title', { brand })} onClose={close}>
      <p className="font-medium">{t('version', { version: APP_VERSION })}</p>
      <p className="mt-3 text-slate-700">{t('description')}</p>
      <p className="mt-2 text-slate-700">{t('encryption')}</p>
    </Dialog>
  );
}
