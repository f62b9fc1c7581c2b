'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { Link } from '@/lib/i18n/links';
import { matchesSearch } from '@/lib/search';
import type { TicketSummary } from '@/lib/support/tickets';
import { TicketList } from './TicketList';

/** /support: the user's own tickets with a search box, a way to open one, and the queue for admins. */
export function SupportScreen({ tickets, brand, isAdmin }: { tickets: TicketSummary[]; brand: string; isAdmin: boolean }) {
  const t = useTranslations('Support');
  const c = useTranslations('Support.categories');
  const s = useTranslations('Support.statuses');
  const [query, setQuery] = useState('');
  const shown = tickets.filter((ticket) => matchesSearch(query, ticket.subject, c(ticket.category), s(ticket.status)));
  return (
    <section className="mx-auto flex max-w-4xl flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{t('title')}</h1>
          <p className="text-sm text-slate-600" aria-live="polite">
            {t('total', { count: tickets.length })}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {isAdmin && (
            <Link href="/admin/support" className="button-secondary">
              {t('queueLink')}
            </Link>
          )}
          <Link href="/open-ticket" className="button-primary">
            {t('newTicket')}
          </Link>
        </div>
      </div>
      <p className="text-slate-700">{t('intro', { brand })}</p>
      <label className="sr-only" htmlFor="ticket-search">
        {t('search')}
      </label>
      <input
        id="ticket-search"
        type="search"
        value={query}
        placeholder={t('search')}
        onChange={(event) => setQuery(event.target.value)}
        className="rounded-md border border-slate-300 px-3 py-2"
      />
      {tickets.length === 0 && <p className="text-slate-600">{t('empty')}</p>}
      {tickets.length > 0 && shown.length === 0 && <p className="text-slate-600">{t('noMatch')}</p>}
      <TicketList tickets={shown} label={t('listLabel')} />
    </section>
  );
}
