'use client';

import { FieldFrame } from './FieldFrame';

type InputProps = React.InputHTMLAttributes<HTMLInputElement> & { ref?: React.Ref<HTMLInputElement> };

/** A labelled input with its error (an error code) and hint wired up for screen readers. */
export function Field({ label, error, hint, ...input }: InputProps & { label: string; error?: string; hint?: string }) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(wiring) => <input {...wiring} {...input} />}
    </FieldFrame>
  );
}
