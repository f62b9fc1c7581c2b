'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { apiPost } from '@/lib/api/browser';
import type { RoomView } from '@/lib/rooms/view';
import { matchesSearch } from '@/lib/search';
import { ColorDot } from '@/components/forms/ColorPicker';
import { RoomLink } from './RoomLink';
import { ListHeader } from '@/components/forms/ListHeader';
import { RowActions, useListEditor } from '@/components/forms/useListEditor';
import { ConfirmDialog } from '@/components/dialog/ConfirmDialog';
import { LazyDialog, lazyComponent } from '@/components/dialog/lazy';

// The form (react-hook-form, zod) loads when it opens.
const RoomDialog = lazyComponent(() => import('./RoomDialog').then((m) => m.RoomDialog));

/**
 * The rooms list (SPEC point 2): search, add, edit, delete with confirmation, the default room,
 * "managed by" and totals. `limit` is null for no limit; without billing it is the admin's (issue 35).
 * `sfu`: this server routes calls through an SFU (issue 38), which the room form mentions.
 */
export function RoomsScreen({ rooms, limit, billingOn = true, sfu = false }: { rooms: RoomView[]; limit: number | null; billingOn?: boolean; sfu?: boolean }) {
  const t = useTranslations('Rooms');
  const m = useTranslations('Manage');
  const format = useFormatter();
  const list = useListEditor<RoomView>('/api/room');
  const shown = rooms.filter((room) => matchesSearch(list.query, room.name, room.adminName, room.adminEmail));
  const atLimit = limit !== null && rooms.length >= limit;

  async function makeDefault(room: RoomView) {
    const answer = await apiPost('/api/room/update', { id: room.id, isDefault: true });
    if (answer.status === 'ok') list.feedback.succeeded();
    else list.feedback.failed(answer.errorCode ?? 'error_contact_us');
  }

  return (
    <section className="mx-auto max-w-5xl">
      <ListHeader
        level={1}
        title={t('title')}
        total={limit === null ? t('total', { count: rooms.length }) : t('totalOfLimit', { count: rooms.length, limit })}
        searchLabel={t('search')}
        query={list.query}
        onQuery={list.setQuery}
        addLabel={t('add')}
        onAdd={() => list.setEditing('new')}
        // Without billing there is no plan to upgrade: the server's admin sets the limit (issue 35).
        addBlocked={atLimit ? t(billingOn ? 'limitReached' : 'limitReachedPrivate') : undefined}
      />
      {rooms.length === 0 && <p className="text-slate-600">{t('empty')}</p>}
      {rooms.length > 0 && shown.length === 0 && <p className="text-slate-600">{m('noMatch')}</p>}
      <ul aria-label={t('listLabel')} className="grid gap-3 md:grid-cols-2">
        {shown.map((room) => (
          <li key={room.id} className="flex min-w-0 flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
            <div className="flex items-center gap-2">
              <ColorDot color={room.color} />
              <h2 className="font-semibold break-all">{room.name}</h2>
              {room.isDefault && <span className="rounded bg-brand-soft px-2 py-0.5 text-xs font-medium text-brand-strong">{t('defaultBadge')}</span>}
            </div>
            <p className="text-sm text-slate-600">{room.hasPassword ? t('protected') : t('open')}</p>
            {sfu && room.mediaRoute !== 'auto' && <p className="text-sm text-slate-600">{t(room.mediaRoute === 'sfu' ? 'mediaRouteSfu' : 'mediaRouteMesh')}</p>}
            <div className="text-sm">
              <span className="text-slate-600">{t('link')}</span>
              <RoomLink link={room.link} roomName={room.name} />
            </div>
            <p className="text-sm text-slate-600">{t('managedBy', { name: room.adminName ?? '', email: room.adminEmail ?? '' })}</p>
            <p className="text-sm text-slate-600">{t('created', { date: format.dateTime(new Date(room.createdAt), { dateStyle: 'medium' }) })}</p>
            <RowActions name={room.name} onEdit={() => list.setEditing(room)} onDelete={() => list.setDeleting(room)}>
              {!room.isDefault && (
                <button type="button" className="button-secondary" onClick={() => makeDefault(room)} aria-label={t('makeDefaultNamed', { name: room.name })}>
                  {t('makeDefault')}
                </button>
              )}
            </RowActions>
          </li>
        ))}
      </ul>
      {list.editing && (
        <LazyDialog>
          <RoomDialog room={list.editing === 'new' ? undefined : list.editing} sfu={sfu} onClose={() => list.setEditing(null)} />
        </LazyDialog>
      )}
      {list.deleting && (
        <ConfirmDialog
          title={t('deleteTitle')}
          message={t('deleteConfirm', { name: list.deleting.name })}
          confirmLabel={m('confirmDelete')}
          onConfirm={list.remove}
          onClose={() => list.setDeleting(null)}
        />
      )}
    </section>
  );
}
