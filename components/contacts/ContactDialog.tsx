'use client';

import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { z } from 'zod';
import { apiPost } from '@/lib/api/browser';
import { DEFAULT_PHONE_COUNTRY } from '@/lib/contacts/phone';
import { contactSchema } from '@/lib/contacts/schemas';
import type { ContactView } from '@/lib/contacts/view';
import { isLocale, localeOptionLabel, locales } from '@/lib/i18n/locales';
import { listTimezones } from '@/lib/time/timezones';
import { Dialog } from '@/components/dialog/Dialog';
import { ColorPicker } from '@/components/forms/ColorPicker';
import { DialogActions } from '@/components/forms/DialogActions';
import { Field } from '@/components/forms/Field';
import { SelectField } from '@/components/forms/SelectField';
import { showAnswerError } from '@/components/forms/answers';
import { useApiFeedback } from '@/components/forms/useApiFeedback';
import { ConfirmStep } from './ConfirmStep';
import { PhoneField } from './PhoneField';
import { DEFAULT_COLOR } from '@/lib/colors';

type Input = z.input<typeof contactSchema>;
type Output = z.output<typeof contactSchema>;
const FIELDS = ['name', 'email', 'phoneNumber', 'countryCode', 'color', 'lang', 'timezone'] as const;

function initialValues(contact: ContactView | undefined, locale: string): Input {
  return {
    name: contact?.name ?? '',
    email: contact?.email ?? '',
    phoneNumber: contact?.phoneNumber ? (parsePhoneNumberFromString(contact.phoneNumber)?.formatInternational() ?? contact.phoneNumber) : '',
    countryCode: contact?.countryCode ?? DEFAULT_PHONE_COUNTRY,
    color: contact?.color ?? DEFAULT_COLOR,
    lang: isLocale(contact?.lang) ? contact.lang : isLocale(locale) ? locale : 'en',
    // A new contact starts in the zone of the person adding it.
    timezone: contact ? (contact.timezone ?? '') : Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
}

/** The add/edit contact modal (SPEC point 2); saving an edit asks for confirmation first. */
export function ContactDialog({ contact, onClose }: { contact?: ContactView; onClose: () => void }) {
  const t = useTranslations('Contacts');
  const m = useTranslations('Manage');
  const locale = useLocale();
  const feedback = useApiFeedback();
  const [pending, setPending] = useState<Output | null>(null);
  const [busy, setBusy] = useState(false);
  const { register, handleSubmit, control, setError, formState } = useForm<Input, unknown, Output>({
    resolver: zodResolver(contactSchema),
    defaultValues: initialValues(contact, locale),
  });
  const zones = useMemo(() => listTimezones(), []);

  async function save(values: Output) {
    setBusy(true);
    const answer = contact ? await apiPost('/api/attendee/update', { ...values, id: contact.id }) : await apiPost('/api/attendee', values);
    setBusy(false);
    setPending(null);
    if (answer.status !== 'ok') return showAnswerError(answer, FIELDS, setError, feedback.failed);
    feedback.succeeded();
    onClose();
  }

  const { errors } = formState;
  const currentZone = contact?.timezone;
  return (
    <Dialog title={pending ? m('updateTitle') : contact ? t('editTitle') : t('addTitle')} onClose={onClose}>
      {pending && contact && (
        <ConfirmStep message={t('updateConfirm', { name: contact.name })} busy={busy} onBack={() => setPending(null)} onConfirm={() => save(pending)} />
      )}
      <form noValidate hidden={pending !== null} onSubmit={handleSubmit(contact ? setPending : save)} className="flex flex-col gap-4">
        <Field label={t('name')} autoComplete="name" error={errors.name?.message} {...register('name')} />
        <Field
          label={t('email')}
          type="email"
          autoComplete="email"
          // The server refuses the user's own address as incorrect_email.
          error={errors.email?.message === 'incorrect_email' ? t('ownEmail') : errors.email?.message}
          {...register('email')}
        />
        <PhoneField
          labels={{ country: t('country'), number: t('phone') }}
          country={register('countryCode')}
          number={register('phoneNumber')}
          error={errors.phoneNumber ? t('phoneInvalid') : undefined}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField label={t('language')} error={errors.lang?.message} {...register('lang')}>
            {locales.map((code) => (
              <option key={code} value={code} lang={code}>
                {localeOptionLabel(code)}
              </option>
            ))}
          </SelectField>
          <SelectField label={t('timezone')} error={errors.timezone?.message} {...register('timezone')}>
            <option value="">{t('noTimezone')}</option>
            {currentZone && !zones.some((zone) => zone.id === currentZone) && <option value={currentZone}>{currentZone}</option>}
            {zones.map((zone) => (
              <option key={zone.id} value={zone.id}>
                {zone.label}
              </option>
            ))}
          </SelectField>
        </div>
        <Controller control={control} name="color" render={({ field }) => <ColorPicker value={field.value} onChange={field.onChange} />} />
        <DialogActions onCancel={onClose} busy={busy} />
      </form>
    </Dialog>
  );
}
