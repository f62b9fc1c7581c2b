'use client';

import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { ApiAnswer } from '@/lib/api/browser';

/**
 * Shows a failed answer where it belongs: on its field when the server named one that the form
 * has, else through `fallback` (a toast or a message above the form).
 */
export function showAnswerError<T extends FieldValues>(
  answer: ApiAnswer,
  fields: readonly string[],
  setError: UseFormSetError<T>,
  fallback: (codeOrMessage: string) => void,
) {
  const field = typeof answer.field === 'string' ? answer.field : undefined;
  const code = answer.errorCode ?? 'error_contact_us';
  if (field && fields.includes(field)) setError(field as Path<T>, { message: code });
  else fallback(code);
}
