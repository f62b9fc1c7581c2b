'use client';

import { useId, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import type { ContactView } from '@/lib/contacts/view';
import type { GroupView } from '@/lib/groups/view';
import { ContactsPanel } from './ContactsPanel';
import { GroupsPanel } from './GroupsPanel';

const TABS = ['contacts', 'groups'] as const;
type Tab = (typeof TABS)[number];

/**
 * /attendees: contacts and groups side by side from the md breakpoint, as two tabs below it
 * (SPEC point 2). Arrow keys move between the tabs.
 */
export function AddressBook({ contacts, groups }: { contacts: ContactView[]; groups: GroupView[] }) {
  const t = useTranslations('Contacts');
  const g = useTranslations('Groups');
  const id = useId();
  const [tab, setTab] = useState<Tab>('contacts');
  const tabs = useRef<Record<Tab, HTMLButtonElement | null>>({ contacts: null, groups: null });

  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const next = tab === 'contacts' ? 'groups' : 'contacts';
    setTab(next);
    tabs.current[next]?.focus();
  }

  const panel = (name: Tab) => ({
    id: `${id}-${name}`,
    role: 'tabpanel',
    'aria-labelledby': `${id}-${name}-tab`,
    className: tab === name ? '' : 'hidden md:block',
  });

  return (
    <>
      <div role="tablist" aria-label={t('tabs')} className="mb-4 flex border-b border-slate-200 md:hidden">
        {TABS.map((name) => (
          <button
            key={name}
            ref={(element) => {
              tabs.current[name] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-${name}-tab`}
            aria-selected={tab === name}
            aria-controls={`${id}-${name}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            onKeyDown={onKeyDown}
            className="-mb-px border-b-2 border-transparent px-4 py-2 font-medium aria-selected:border-brand aria-selected:text-brand"
          >
            {name === 'contacts' ? t('title') : g('title')}
          </button>
        ))}
      </div>
      <div className="grid gap-8 md:grid-cols-2">
        <div {...panel('contacts')}>
          <ContactsPanel contacts={contacts} groups={groups} />
        </div>
        <div {...panel('groups')}>
          <GroupsPanel groups={groups} contacts={contacts} />
        </div>
      </div>
    </>
  );
}
