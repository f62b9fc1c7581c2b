'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { TicketList } from '@/components/support/TicketList';
import { matchesSearch } from '@/lib/search';
import { ticketStatuses } from '@/lib/support/categories';
import type { TicketSummary } from '@/lib/support/tickets';

/** The staff queue: every ticket, open first, filtered by status and searched. */
export function QueueScreen({ tickets }: { tickets: TicketSummary[] }) {
  const t = useTranslations('AdminSupport');
  const s = useTranslations('Support');
  const [status, setStatus] = useState('');
  const [query, setQuery] = useState('');
  const shown = tickets.filter(
    (ticket) =>
      (!status || ticket.status === status) && matchesSearch(query, ticket.subject, ticket.owner.email, ticket.owner.name, s(`categories.${ticket.category}`)),
  );
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="queue-status" className="text-sm font-medium text-slate-700">
            {t('filter')}
          </label>
          <select
            id="queue-status"
            value={status}
            onChange={(event) => setStatus(event.target.value)}
            className="rounded-md border border-slate-300 bg-white px-3 py-2"
          >
            <option value="">{t('all')}</option>
            {ticketStatuses.map((value) => (
              <option key={value} value={value}>
                {s(`statuses.${value}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex min-w-64 flex-1 flex-col gap-1">
          <label htmlFor="queue-search" className="text-sm font-medium text-slate-700">
            {s('search')}
          </label>
          <input
            id="queue-search"
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            className="rounded-md border border-slate-300 px-3 py-2"
          />
        </div>
      </div>
      <p className="text-sm text-slate-600" aria-live="polite">
        {t('total', { count: shown.length })}
      </p>
      {shown.length === 0 && <p className="text-slate-600">{t('empty')}</p>}
      <TicketList tickets={shown} label={t('listLabel')} showOwner />
    </div>
  );
}
