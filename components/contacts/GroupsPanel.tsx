'use client';

import { useFormatter, useTranslations } from 'next-intl';
import type { ContactView } from '@/lib/contacts/view';
import { GROUP_MIN_CONTACTS } from '@/lib/groups/limits';
import type { GroupView } from '@/lib/groups/view';
import { matchesSearch } from '@/lib/search';
import { ColorDot } from '@/components/forms/ColorPicker';
import { ListHeader } from '@/components/forms/ListHeader';
import { RowActions, useListEditor } from '@/components/forms/useListEditor';
import { ConfirmDialog } from '@/components/dialog/ConfirmDialog';
import { LazyDialog, lazyComponent } from '@/components/dialog/lazy';

// The form (react-hook-form, zod) loads when it opens.
const GroupDialog = lazyComponent(() => import('./GroupDialog').then((m) => m.GroupDialog));

/** The groups half of /attendees: search, add, edit, delete (SPEC point 2). */
export function GroupsPanel({ groups, contacts }: { groups: GroupView[]; contacts: ContactView[] }) {
  const t = useTranslations('Groups');
  const m = useTranslations('Manage');
  const format = useFormatter();
  const list = useListEditor<GroupView>('/api/groups');
  const names = new Map(contacts.map((contact) => [contact.id, contact.name]));
  const membersOf = (group: GroupView) => group.attendees.map((id) => names.get(id) ?? '').sort((a, b) => a.localeCompare(b));
  const shown = groups.filter((group) => matchesSearch(list.query, group.name, ...membersOf(group)));

  return (
    <div>
      <ListHeader
        level={2}
        title={t('title')}
        total={t('total', { count: groups.length })}
        searchLabel={t('search')}
        query={list.query}
        onQuery={list.setQuery}
        addLabel={t('add')}
        onAdd={() => list.setEditing('new')}
        addBlocked={contacts.length < GROUP_MIN_CONTACTS ? t('needContacts') : undefined}
      />
      {groups.length === 0 && <p className="text-slate-600">{t('empty')}</p>}
      {groups.length > 0 && shown.length === 0 && <p className="text-slate-600">{m('noMatch')}</p>}
      <ul aria-label={t('listLabel')} className="flex flex-col gap-3">
        {shown.map((group) => (
          <li key={group.id} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4">
            <div className="flex items-center gap-2">
              <ColorDot color={group.color} />
              <h3 className="font-semibold break-all">{group.name}</h3>
              <span className="text-sm text-slate-600">{t('memberCount', { count: group.attendees.length })}</span>
            </div>
            <p className="text-sm text-slate-600">{format.list(membersOf(group))}</p>
            {group.incomplete && <p className="text-sm text-amber-800">{t('incomplete')}</p>}
            <RowActions name={group.name} onEdit={() => list.setEditing(group)} onDelete={() => list.setDeleting(group)} />
          </li>
        ))}
      </ul>
      {list.editing && (
        <LazyDialog>
          <GroupDialog group={list.editing === 'new' ? undefined : list.editing} contacts={contacts} onClose={() => list.setEditing(null)} />
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
    </div>
  );
}
