'use client';

import { useTranslations } from 'next-intl';
import { Link } from '@/lib/i18n/links';
import type { TicketSummary } from '@/lib/support/tickets';
import { useClock } from '@/components/time/useClock';
import { ZoneNote } from '@/components/time/ZoneNote';
import { TicketBadges } from './TicketBadges';

/** Tickets as a list of links: subject, status, category, last reply (and the owner, for staff). */
export function TicketList({ tickets, label, showOwner = false }: { tickets: TicketSummary[]; label: string; showOwner?: boolean }) {
  const t = useTranslations('Support');
  const a = useTranslations('AdminSupport');
  const when = useClock().dateTime;
  return (
    <>
      <ZoneNote />
      <ul aria-label={label} className="flex flex-col gap-3">
        {tickets.map((ticket) => (
          <li key={ticket.id} className="rounded-lg border border-slate-200 bg-white p-4">
            <Link href={`/view-ticket/${ticket.id}`} className="font-semibold text-brand underline-offset-2 hover:underline">
              {ticket.subject}
            </Link>
            <div className="mt-2 flex flex-wrap items-center gap-3 text-sm text-slate-600">
              <TicketBadges status={ticket.status} category={ticket.category} />
              {showOwner && (
                <span>
                  {a('owner')}: {ticket.owner.name} ({ticket.owner.email})
                </span>
              )}
              <span>{ticket.lastReply ? t(ticket.lastReply.byStaff ? 'lastReplyStaff' : 'lastReply', { date: when(ticket.lastReply.at) }) : t('noReply')}</span>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
