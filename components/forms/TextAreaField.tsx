'use client';

import { useId } from 'react';
import { useErrorText } from './useErrorText';

type TextAreaProps = React.TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: React.Ref<HTMLTextAreaElement> };

/** A labelled multi-line text field, like Field: its error (an error code) and hint wired up for screen readers. */
export function TextAreaField({ label, error, hint, className = '', ...textarea }: TextAreaProps & { label: string; error?: string; hint?: string }) {
  const id = useId();
  const errorText = useErrorText();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className="rounded-md border border-slate-300 px-3 py-2 aria-invalid:border-red-600"
        {...textarea}
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
