'use client';

import { useTranslations } from 'next-intl';
import { Field } from '@/components/forms/Field';
import { SelectField } from '@/components/forms/SelectField';
import { registrationModes, type RegistrationMode } from '@/lib/registration/policy';

type State<T> = [T, (value: T) => void];

/** Who may register, and whether users may invite (issue 35); '' follows the server's REGISTRATION. */
export function RegistrationFields({
  defaults,
  mode,
  domains,
  usersMayInvite,
  errors,
}: {
  defaults: { mode: RegistrationMode; domains: string[] };
  mode: State<RegistrationMode | ''>;
  domains: State<string>;
  usersMayInvite: State<boolean>;
  errors: Record<string, string>;
}) {
  const t = useTranslations('AdminConfiguration');
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium text-slate-700">{t('registration')}</legend>
      <SelectField
        label={t('registrationMode')}
        value={mode[0]}
        onChange={(event) => mode[1](event.target.value as RegistrationMode | '')}
        error={errors.registration}
      >
        <option value="">{t('registrationDefault', { mode: t(`registrationModes.${defaults.mode}`) })}</option>
        {registrationModes.map((value) => (
          <option key={value} value={value}>
            {t(`registrationModes.${value}`)}
          </option>
        ))}
      </SelectField>
      <Field
        label={t('registrationDomains')}
        hint={t('registrationDomainsHint', { default: defaults.domains.join(', ') || '—' })}
        value={domains[0]}
        onChange={(event) => domains[1](event.target.value)}
        error={errors.registration_domains}
      />
      <div className="flex items-start gap-2">
        <input
          id="config-users-invite"
          type="checkbox"
          checked={usersMayInvite[0]}
          onChange={(event) => usersMayInvite[1](event.target.checked)}
          aria-describedby="config-users-invite-hint"
          className="mt-1"
        />
        <div>
          <label htmlFor="config-users-invite" className="text-sm font-medium text-slate-700">
            {t('usersMayInvite')}
          </label>
          <p id="config-users-invite-hint" className="text-xs text-slate-500">
            {t('usersMayInviteHint')}
          </p>
        </div>
      </div>
    </fieldset>
  );
}
