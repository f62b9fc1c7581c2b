'use client';

import { useTranslations } from 'next-intl';
import type { TicketCategory, TicketStatus } from '@/lib/support/categories';

const statusColors: Record<TicketStatus, string> = {
  open: 'bg-amber-100 text-amber-900',
  answered: 'bg-brand-soft text-brand-strong',
  closed: 'bg-slate-100 text-slate-700',
};

/** The status and category of a ticket, as words (never colour alone). */
export function TicketBadges({ status, category }: { status: TicketStatus; category: TicketCategory }) {
  const t = useTranslations('Support');
  return (
    <span className="flex flex-wrap gap-2 text-xs font-medium">
      <span className={`rounded px-2 py-0.5 ${statusColors[status]}`}>
        {t('status')}: {t(`statuses.${status}`)}
      </span>
      <span className="rounded bg-slate-100 px-2 py-0.5 text-slate-700">
        {t('category')}: {t(`categories.${category}`)}
      </span>
    </span>
  );
}
