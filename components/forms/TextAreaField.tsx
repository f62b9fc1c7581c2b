'use client';

import { useId } from 'react';

type TextAreaProps = React.TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: React.Ref<HTMLTextAreaElement> };

/** A labelled multi-line text field, like Field. */
export function TextAreaField({ label, className = '', ...textarea }: TextAreaProps & { label: string }) {
  const id = useId();
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea id={id} rows={3} className="rounded-md border border-slate-300 px-3 py-2" {...textarea} />
    </div>
  );
}
