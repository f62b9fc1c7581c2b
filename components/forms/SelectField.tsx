'use client';

import { useId } from 'react';
import { useErrorText } from './useErrorText';

type SelectProps = React.SelectHTMLAttributes<HTMLSelectElement> & { ref?: React.Ref<HTMLSelectElement> };

/** A labelled select with its error (an error code or a text), like Field. */
export function SelectField({ label, error, children, ...select }: SelectProps & { label: string; error?: string }) {
  const id = useId();
  const errorText = useErrorText();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="rounded-md border border-slate-300 bg-white px-3 py-2 aria-invalid:border-red-600"
        {...select}
      >
        {children}
      </select>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {errorText(error)}
        </p>
      )}
    </div>
  );
}
