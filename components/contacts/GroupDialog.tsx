'use client';

import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { DialogActions } from '@/components/forms/DialogActions';
import type { z } from 'zod';
import { apiPost } from '@/lib/api/browser';
import type { ContactView } from '@/lib/contacts/view';
import { groupSchema } from '@/lib/groups/schemas';
import type { GroupView } from '@/lib/groups/view';
import { matchesSearch } from '@/lib/search';
import { Dialog } from '@/components/dialog/Dialog';
import { ColorPicker } from '@/components/forms/ColorPicker';
import { Field } from '@/components/forms/Field';
import { showAnswerError } from '@/components/forms/answers';
import { useApiFeedback } from '@/components/forms/useApiFeedback';
import { useErrorText } from '@/components/forms/useErrorText';
import { ConfirmStep } from './ConfirmStep';
import { DEFAULT_COLOR } from '@/lib/colors';

type Input = z.input<typeof groupSchema>;
type Output = z.output<typeof groupSchema>;
const FIELDS = ['name', 'color', 'attendees'] as const;

/** The add/edit group modal (SPEC point 2): a name, a colour and at least two contacts. */
export function GroupDialog({ group, contacts, onClose }: { group?: GroupView; contacts: ContactView[]; onClose: () => void }) {
  const t = useTranslations('Groups');
  const m = useTranslations('Manage');
  const errorText = useErrorText();
  const feedback = useApiFeedback();
  const [pending, setPending] = useState<Output | null>(null);
  const [busy, setBusy] = useState(false);
  const [filter, setFilter] = useState('');
  const filterId = useId();
  const { register, handleSubmit, control, setError, formState } = useForm<Input, unknown, Output>({
    resolver: zodResolver(groupSchema),
    defaultValues: {
      name: group?.name ?? '',
      color: group?.color ?? DEFAULT_COLOR,
      attendees: group?.attendees ?? [],
    },
  });

  async function save(values: Output) {
    setBusy(true);
    // SPEC point 3: attendees travel as a JSON string of contact ids.
    const body = {
      ...values,
      attendees: JSON.stringify(values.attendees),
      ...(group && { id: group.id }),
    };
    const answer = await apiPost(group ? '/api/groups/update' : '/api/groups', body);
    setBusy(false);
    setPending(null);
    if (answer.status !== 'ok') return showAnswerError(answer, FIELDS, setError, feedback.failed);
    feedback.succeeded();
    onClose();
  }

  const { errors } = formState;
  const membersError = errors.attendees?.message;
  const shown = contacts.filter((contact) => matchesSearch(filter, contact.name, contact.email));
  return (
    <Dialog title={pending ? m('updateTitle') : group ? t('editTitle') : t('addTitle')} onClose={onClose}>
      {pending && group && (
        <ConfirmStep message={t('updateConfirm', { name: group.name })} busy={busy} onBack={() => setPending(null)} onConfirm={() => save(pending)} />
      )}
      <form noValidate hidden={pending !== null} onSubmit={handleSubmit(group ? setPending : save)} className="flex flex-col gap-4">
        <Field label={t('name')} autoComplete="off" error={errors.name?.message} {...register('name')} />
        <Controller control={control} name="color" render={({ field }) => <ColorPicker value={field.value} onChange={field.onChange} />} />
        <Controller
          control={control}
          name="attendees"
          render={({ field }) => {
            const selected = (field.value as string[] | undefined) ?? [];
            const toggle = (id: string, on: boolean) => field.onChange(on ? [...selected, id] : selected.filter((other) => other !== id));
            return (
              <fieldset aria-invalid={membersError ? true : undefined} className="flex flex-col gap-2">
                <legend className="text-sm font-medium text-slate-700">{t('members')}</legend>
                <label className="sr-only" htmlFor={filterId}>
                  {t('filterMembers')}
                </label>
                <input
                  id={filterId}
                  type="search"
                  value={filter}
                  placeholder={t('filterMembers')}
                  onChange={(event) => setFilter(event.target.value)}
                  className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
                />
                <ul className="max-h-56 overflow-y-auto rounded-md border border-slate-200 p-2">
                  {shown.map((contact) => (
                    <li key={contact.id}>
                      <label className="flex items-center gap-2 py-1">
                        <input type="checkbox" checked={selected.includes(contact.id)} onChange={(event) => toggle(contact.id, event.target.checked)} />
                        <span>{contact.name}</span>
                        <span className="truncate text-sm text-slate-500">{contact.email}</span>
                      </label>
                    </li>
                  ))}
                </ul>
                {membersError && (
                  <p role="alert" className="text-sm text-red-700">
                    {/* SPEC point 5: too few contacts reads 'Select at least two contacts'. */}
                    {membersError === 'incorrect_data' ? t('selectTwo') : errorText(membersError)}
                  </p>
                )}
              </fieldset>
            );
          }}
        />
        <DialogActions onCancel={onClose} busy={busy} />
      </form>
    </Dialog>
  );
}
