'use client';

import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import { RateForm } from '@/components/rate/RateForm';
import { RATE_LABEL_KEYS, starOptions } from '@/lib/ratings/labels';

/** SPEC point 2, the rate-experience modal: offered from the app and after leaving a meeting. */
export function RateModal({ close }: { close: () => void }) {
  const t = useTranslations('Rate');
  const labels = Object.fromEntries(RATE_LABEL_KEYS.map((key) => [key, t(key)])) as Record<(typeof RATE_LABEL_KEYS)[number], string>;
  return (
    <Dialog title={t('title')} onClose={close}>
      <RateForm labels={{ ...labels, options: starOptions(t as never) }} />
    </Dialog>
  );
}
