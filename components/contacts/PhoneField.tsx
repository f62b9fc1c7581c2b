'use client';

import { useMemo } from 'react';
import { useLocale } from 'next-intl';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Field } from '@/components/forms/Field';
import { SelectField } from '@/components/forms/SelectField';

interface PhoneFieldProps {
  labels: { country: string; number: string };
  country: UseFormRegisterReturn;
  number: UseFormRegisterReturn;
  /** The text to show under the number, if it is not valid. */
  error?: string;
}

/** Phone entry with a country selector (SPEC point 2): the country gives the dial code. */
export function PhoneField({ labels, country, number, error }: PhoneFieldProps) {
  const locale = useLocale();
  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    return getCountries()
      .map((code) => ({ code, label: `${names.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
      .sort((a, b) => a.label.localeCompare(b.label, locale));
  }, [locale]);
  return (
    <div className="grid gap-3 sm:grid-cols-[minmax(0,14rem)_1fr]">
      <SelectField label={labels.country} {...country}>
        {countries.map(({ code, label }) => (
          <option key={code} value={code}>
            {label}
          </option>
        ))}
      </SelectField>
      <Field label={labels.number} type="tel" autoComplete="tel" error={error} {...number} />
    </div>
  );
}
