'use client';

import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/modal/Dialog';

/** The billing modal; choosing a plan and paying come with billing. */
export function BillingModal({ close }: { close: () => void }) {
  const t = useTranslations('Billing');
  return (
    <Dialog title={t('title')} onClose={close}>
      <p className="text-slate-700">{t('trialEnded')}</p>
      <p className="mt-3 font-medium">{t('price')}</p>
    </Dialog>
  );
}
