'use client';

import { FieldFrame } from './FieldFrame';

type TextAreaProps = React.TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: React.Ref<HTMLTextAreaElement> };

/** A labelled multi-line text field, like Field: its error (an error code) and hint wired up for screen readers. */
export function TextAreaField({ label, error, hint, className = '', ...textarea }: TextAreaProps & { label: string; error?: string; hint?: string }) {
  return (
    <FieldFrame label={label} error={error} hint={hint} className={className}>
      {(wiring) => <textarea rows={3} {...wiring} {...textarea} />}
    </FieldFrame>
  );
}
