'use client';

import { useId } from 'react';

/** A read-only value with its label and a copy button (the meeting link, the password). */
export function CopyField({
  label,
  value,
  copyLabel,
  onCopy,
  mono = false,
  selectOnFocus = false,
}: {
  label: string;
  value: string;
  copyLabel: string;
  onCopy: (value: string) => void;
  mono?: boolean;
  selectOnFocus?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          className={`min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 ${mono ? 'font-mono' : ''}`}
          onFocus={selectOnFocus ? (event) => event.target.select() : undefined}
        />
        <button type="button" className="button-secondary" onClick={() => onCopy(value)}>
          {copyLabel}
        </button>
      </div>
    </div>
  );
}
