'use client';

import { useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import { isEmailAddress } from '@/lib/email-address';
import { useErrorText } from '@/components/forms/useErrorText';
import type { StepProps, WizardData } from './types';

/**
 * Step 2: contacts and groups to invite, e-mail guests, and whether the invitation shows who else
 * is invited. The organizer's own address and duplicates are refused (SPEC point 5).
 */
export function StepAttendees({ draft, errors, onChange, contacts, groups }: StepProps & { contacts: WizardData['contacts']; groups: WizardData['groups'] }) {
  const t = useTranslations('Schedule');
  const errorText = useErrorText();
  const [query, setQuery] = useState('');
  const [guest, setGuest] = useState('');
  const [guestError, setGuestError] = useState<string | null>(null);
  const searchId = useId();
  const guestId = useId();
  const chosen = new Set(draft.attendees.map((a) => a.email.toLowerCase()));
  const contactEmails = new Set(contacts.map((c) => c.email.toLowerCase()));
  const guests = draft.attendees.filter((a) => !contactEmails.has(a.email.toLowerCase()));
  const words = query.trim().toLowerCase();
  const shownContacts = contacts.filter((c) => !words || `${c.name} ${c.email}`.toLowerCase().includes(words));

  const toggleContact = (contact: WizardData['contacts'][number], on: boolean) =>
    onChange({
      attendees: on
        ? [...draft.attendees, { email: contact.email, name: contact.name }]
        : draft.attendees.filter((a) => a.email.toLowerCase() !== contact.email.toLowerCase()),
    });

  function addGuest() {
    const email = guest.trim().toLowerCase();
    if (!isEmailAddress(email)) return setGuestError('invite_incorrect_email_format');
    if (chosen.has(email)) return setGuestError('contact_exists');
    onChange({ attendees: [...draft.attendees, { email }] });
    setGuest('');
    setGuestError(null);
  }

  return (
    <div className="flex flex-col gap-6">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-700">{t('contacts')}</legend>
        {contacts.length > 6 && (
          <>
            <label htmlFor={searchId} className="sr-only">
              {t('searchContacts')}
            </label>
            <input
              id={searchId}
              type="search"
              placeholder={t('searchContacts')}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              className="rounded-md border border-slate-300 px-3 py-2"
            />
          </>
        )}
        {contacts.length === 0 && <p className="text-sm text-slate-600">{t('noContacts')}</p>}
        <div className="max-h-56 overflow-y-auto">
          {shownContacts.map((contact) => (
            <label key={contact.id} className="flex items-center gap-2 py-1">
              <input type="checkbox" checked={chosen.has(contact.email.toLowerCase())} onChange={(e) => toggleContact(contact, e.target.checked)} />
              <span>{contact.name}</span>
              <span className="text-sm text-slate-500">{contact.email}</span>
            </label>
          ))}
        </div>
      </fieldset>

      {groups.length > 0 && (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-700">{t('groups')}</legend>
          {groups.map((group) => (
            <label key={group.id} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={draft.groups.includes(group.id)}
                onChange={(e) => onChange({ groups: e.target.checked ? [...draft.groups, group.id] : draft.groups.filter((id) => id !== group.id) })}
              />
              {group.name}
              <span className="text-sm text-slate-500">{t('groupSize', { count: group.attendees.length })}</span>
            </label>
          ))}
        </fieldset>
      )}

      <div className="flex flex-col gap-2">
        <label htmlFor={guestId} className="text-sm font-medium text-slate-700">
          {t('guestEmail')}
        </label>
        <div className="flex gap-2">
          <input
            id={guestId}
            type="email"
            autoComplete="off"
            value={guest}
            aria-invalid={guestError ? true : undefined}
            aria-describedby={guestError ? `${guestId}-error` : undefined}
            onChange={(e) => setGuest(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addGuest();
              }
            }}
            className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2"
          />
          <button type="button" className="button-secondary" onClick={addGuest}>
            {t('addGuest')}
          </button>
        </div>
        {guestError && (
          <p id={`${guestId}-error`} role="alert" className="text-sm text-red-700">
            {errorText(guestError)}
          </p>
        )}
        {guests.length > 0 && (
          <ul aria-label={t('guests')} className="flex flex-wrap gap-2">
            {guests.map((g) => (
              <li key={g.email} className="flex items-center gap-1 rounded-full bg-slate-100 py-1 pr-1 pl-3 text-sm">
                {g.email}
                <button
                  type="button"
                  aria-label={t('removeGuest', { email: g.email })}
                  onClick={() => onChange({ attendees: draft.attendees.filter((a) => a.email !== g.email) })}
                  className="rounded-full px-2 hover:bg-slate-200"
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>

      <label className="flex items-center gap-2">
        <input type="checkbox" checked={draft.showAttendees} onChange={(e) => onChange({ showAttendees: e.target.checked })} />
        {t('showAttendees')}
      </label>
      {errors.attendees && (
        <p role="alert" className="text-sm text-red-700">
          {errorText(errors.attendees)}
        </p>
      )}
    </div>
  );
}
