'use client';

import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import { Link } from '@/lib/i18n/links';

/**
 * SPEC point 4: opened at start for the admin of a free account whose trial has ended. Choosing
 * rooms and paying happen on the billing screen (/settings#billing), where Stripe's card form
 * may load.
 */
export function BillingModal({ close }: { close: () => void }) {
  const t = useTranslations('Billing');
  return (
    <Dialog title={t('title')} onClose={close}>
      <p className="text-slate-700">{t('trialEnded')}</p>
      <p className="mt-3 font-medium">{t('price')}</p>
      <Link href="/settings#billing" className="button-primary mt-6 inline-block" onClick={close}>
        {t('choosePlan')}
      </Link>
    </Dialog>
  );
}
