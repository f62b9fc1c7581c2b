'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { usePathRouter } from '@/lib/navigation/router';
import { useToast } from '@/components/toast/ToastProvider';
import { useErrorText } from '@/components/forms/useErrorText';
import { apiPost } from '@/lib/api/browser';
import { Link } from '@/lib/i18n/links';
import { MESSAGE_MAX, ticketStatuses, type TicketStatus } from '@/lib/support/categories';
import type { TicketDetail } from '@/lib/support/tickets';
import { useClock } from '@/components/time/useClock';
import { ZoneNote } from '@/components/time/ZoneNote';
import { TicketBadges } from './TicketBadges';

function fileSize(bytes: number) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** /view-ticket/{id}: the conversation, a reply form, close and reopen; staff also set any status. */
export function TicketView({ ticket }: { ticket: TicketDetail }) {
  const t = useTranslations('ViewTicket');
  const s = useTranslations('Support');
  const toastText = useTranslations('Toast');
  const clock = useClock();
  const toast = useToast();
  const errorText = useErrorText();
  const router = usePathRouter();
  const [reply, setReply] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<TicketStatus>(ticket.status);
  const staff = !ticket.isOwner;
  const when = clock.dateTime;

  async function act(path: string, body: unknown, onDone?: () => void) {
    setBusy(true);
    const answer = await apiPost(path, body);
    setBusy(false);
    if (answer.status === 'ok') {
      toast.success(toastText('success'));
      onDone?.();
      router.refresh();
    } else if (answer.errorCode !== 'authentication_error') {
      toast.error(answer.message ?? errorText(answer.errorCode) ?? 'error');
    }
  }

  const sendReply = (event: React.FormEvent) => {
    event.preventDefault();
    if (!reply.trim()) return;
    void act(`/api/tickets/${ticket.id}/reply`, { message: reply }, () => setReply(''));
  };
  const changeStatus = (next: TicketStatus) => act(`/api/tickets/${ticket.id}/status`, { status: next });
  const closed = ticket.status === 'closed';

  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-4">
      <Link href={staff ? '/admin/support' : '/support'} className="text-sm text-brand underline">
        {staff ? t('backQueue') : t('back')}
      </Link>
      <div>
        <h1 className="text-2xl font-bold break-words">{ticket.subject}</h1>
        <div className="mt-2 flex flex-wrap items-center gap-3 text-sm text-slate-600">
          <TicketBadges status={ticket.status} category={ticket.category} />
          <span>{t('opened', { date: when(ticket.createdAt) })}</span>
          {staff && <span>{t('from', { name: ticket.owner.name, email: ticket.owner.email })}</span>}
        </div>
        <ZoneNote className="mt-1 text-xs text-slate-500" />
      </div>

      <h2 className="sr-only">{t('conversation')}</h2>
      <ol className="flex flex-col gap-3" aria-label={t('conversation')}>
        {ticket.messages.map((message) => (
          <li key={message.id} className={`rounded-lg border p-4 ${message.byStaff ? 'border-brand bg-brand-soft/40' : 'border-slate-200 bg-white'}`}>
            <p className="text-sm font-semibold">
              {message.byStaff ? t('staff') : ticket.isOwner ? t('you') : message.author || ticket.owner.name}
              <span className="ml-2 font-normal text-slate-600">{when(message.createdAt)}</span>
            </p>
            <p className="mt-2 whitespace-pre-wrap break-words">{message.body}</p>
            {message.attachments.length > 0 && (
              <ul aria-label={t('attachments')} className="mt-2 flex flex-col gap-1 text-sm">
                {message.attachments.map((file) => (
                  <li key={file.id}>
                    <a href={`/api/tickets/${ticket.id}/attachments/${file.id}`} download={file.fileName} className="text-brand underline">
                      {t('download', { name: file.fileName, size: fileSize(file.size) })}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>

      {closed && !staff ? (
        <p className="rounded-md bg-slate-50 p-3 text-slate-700">{t('closedNote')}</p>
      ) : (
        <form onSubmit={sendReply} className="flex flex-col gap-2">
          <label htmlFor="ticket-reply" className="text-sm font-medium text-slate-700">
            {staff ? t('staffReply') : t('reply')}
          </label>
          <textarea
            id="ticket-reply"
            rows={5}
            required
            maxLength={MESSAGE_MAX}
            value={reply}
            onChange={(event) => setReply(event.target.value)}
            className="rounded-md border border-slate-300 px-3 py-2"
          />
          <div className="flex justify-end">
            <button type="submit" className="button-primary" disabled={busy || !reply.trim()}>
              {t('replySubmit')}
            </button>
          </div>
        </form>
      )}

      <div className="flex flex-wrap items-end justify-end gap-2 border-t border-slate-200 pt-4">
        {staff ? (
          <>
            <div className="flex flex-col gap-1">
              <label htmlFor="ticket-status" className="text-sm font-medium text-slate-700">
                {t('setStatus')}
              </label>
              <select
                id="ticket-status"
                value={status}
                onChange={(event) => setStatus(event.target.value as TicketStatus)}
                className="rounded-md border border-slate-300 bg-white px-3 py-2"
              >
                {ticketStatuses.map((value) => (
                  <option key={value} value={value}>
                    {s(`statuses.${value}`)}
                  </option>
                ))}
              </select>
            </div>
            <button type="button" className="button-secondary" disabled={busy || status === ticket.status} onClick={() => changeStatus(status)}>
              {t('applyStatus')}
            </button>
          </>
        ) : closed ? (
          <button type="button" className="button-secondary" disabled={busy} onClick={() => changeStatus('open')}>
            {t('reopen')}
          </button>
        ) : (
          <button type="button" className="button-secondary" disabled={busy} onClick={() => changeStatus('closed')}>
            {t('close')}
          </button>
        )}
      </div>
    </section>
  );
}
