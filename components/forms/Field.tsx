'use client';

import { useId } from 'react';
import { useErrorText } from './useErrorText';

type InputProps = React.InputHTMLAttributes<HTMLInputElement> & { ref?: React.Ref<HTMLInputElement> };

/** A labelled input with its error (an error code) and hint wired up for screen readers. */
export function Field({ label, error, hint, ...input }: InputProps & { label: string; error?: string; hint?: string }) {
  const id = useId();
  const errorText = useErrorText();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className="rounded-md border border-slate-300 px-3 py-2 aria-invalid:border-red-600"
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {errorText(error)}
        </p>
      )}
    </div>
  );
}
