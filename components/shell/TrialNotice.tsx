'use client';

import { useTranslations } from 'next-intl';
import { Link, usePathname } from '@/lib/i18n/links';

/** "Trial ends in N days" / "trial ended" (SPEC point 4), for every user on trial, on every page. */
export function TrialNotice({ trial }: { trial: { daysLeft: number; ended: boolean } }) {
  const t = useTranslations('Billing');
  const pathname = usePathname();
  // The billing screen says it itself, next to the plan.
  if (pathname === '/settings') return null;
  return (
    <aside
      aria-label={t('sectionTitle')}
      className={`mb-6 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md px-4 py-2 text-sm ${trial.ended ? 'bg-amber-100 text-amber-950' : 'bg-slate-100 text-slate-800'}`}
    >
      <span>{trial.ended ? t('trialEndedNotice') : t('trialEndsIn', { days: trial.daysLeft })}</span>
      <Link href="/settings#billing" className="font-medium underline">
        {t('trialBannerLink')}
      </Link>
    </aside>
  );
}
