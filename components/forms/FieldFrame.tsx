'use client';

import { useId } from 'react';
import { useErrorText } from './useErrorText';

/** What a control inside a FieldFrame takes: its id and the screen-reader wiring of its error and hint. */
export interface ControlWiring {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  className: string;
}

/**
 * The label, hint and error (an error code, shown in the user's language) around one control,
 * wired up for screen readers: the frame Field (an input) and TextAreaField share.
 */
export function FieldFrame({
  label,
  error,
  hint,
  className = '',
  children,
}: {
  label: string;
  error?: string;
  hint?: string;
  className?: string;
  children: (wiring: ControlWiring) => React.ReactNode;
}) {
  const id = useId();
  const errorText = useErrorText();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`flex flex-col gap-1 ${className}`.trim()}>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': described,
        className: 'rounded-md border border-slate-300 px-3 py-2 aria-invalid:border-red-600',
      })}
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
