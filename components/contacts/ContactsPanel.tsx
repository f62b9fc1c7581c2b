'use client';

import { useFormatter, useTranslations } from 'next-intl';
import type { ContactView } from '@/lib/contacts/view';
import type { GroupView } from '@/lib/groups/view';
import { isLocale, localeLabels } from '@/lib/i18n/locales';
import { matchesSearch } from '@/lib/search';
import { ColorDot } from '@/components/forms/ColorPicker';
import { ListHeader } from '@/components/forms/ListHeader';
import { RowActions, useListEditor } from '@/components/forms/useListEditor';
import { ConfirmDialog } from '@/components/dialog/ConfirmDialog';
import { LazyDialog, lazyComponent } from '@/components/dialog/lazy';

// The form (react-hook-form, zod, libphonenumber-js's metadata) loads when it opens.
const ContactDialog = lazyComponent(() => import('./ContactDialog').then((m) => m.ContactDialog));

/** The contacts half of /attendees: search, add, edit, delete (SPEC point 2). */
export function ContactsPanel({ contacts, groups }: { contacts: ContactView[]; groups: GroupView[] }) {
  const t = useTranslations('Contacts');
  const m = useTranslations('Manage');
  const format = useFormatter();
  const list = useListEditor<ContactView>('/api/attendee');
  const shown = contacts.filter((contact) => matchesSearch(list.query, contact.name, contact.email, contact.phoneNumber));
  const groupsOf = (contact: ContactView) => groups.filter((group) => group.attendees.includes(contact.id)).map((group) => group.name);

  return (
    <div>
      <ListHeader
        level={2}
        title={t('title')}
        total={t('total', { count: contacts.length })}
        searchLabel={t('search')}
        query={list.query}
        onQuery={list.setQuery}
        addLabel={t('add')}
        onAdd={() => list.setEditing('new')}
      />
      {contacts.length === 0 && <p className="text-slate-600">{t('empty')}</p>}
      {contacts.length > 0 && shown.length === 0 && <p className="text-slate-600">{m('noMatch')}</p>}
      <ul aria-label={t('listLabel')} className="flex flex-col gap-3">
        {shown.map((contact) => (
          <li key={contact.id} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4">
            <div className="flex items-center gap-2">
              <ColorDot color={contact.color} />
              <h3 className="font-semibold break-all">{contact.name}</h3>
            </div>
            <p className="text-sm break-all">{contact.email}</p>
            {contact.phoneNumber && <p className="text-sm text-slate-600">{contact.phoneNumber}</p>}
            <p className="text-sm text-slate-600">
              {isLocale(contact.lang) ? localeLabels[contact.lang].name : contact.lang}
              {contact.timezone && ` · ${contact.timezone.replaceAll('_', ' ')}`}
            </p>
            <RowActions name={contact.name} onEdit={() => list.setEditing(contact)} onDelete={() => list.setDeleting(contact)} />
          </li>
        ))}
      </ul>
      {list.editing && (
        <LazyDialog>
          <ContactDialog contact={list.editing === 'new' ? undefined : list.editing} onClose={() => list.setEditing(null)} />
        </LazyDialog>
      )}
      {list.deleting && (
        <ConfirmDialog
          title={t('deleteTitle')}
          message={
            <>
              <p>{t('deleteConfirm', { name: list.deleting.name })}</p>
              {groupsOf(list.deleting).length > 0 && <p className="mt-2">{t('leavesGroups', { groups: format.list(groupsOf(list.deleting)) })}</p>}
            </>
          }
          confirmLabel={m('confirmDelete')}
          onConfirm={list.remove}
          onClose={() => list.setDeleting(null)}
        />
      )}
    </div>
  );
}
