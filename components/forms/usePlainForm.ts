'use client';

import { useState } from 'react';
import type { ApiAnswer } from '@/lib/api/browser';
import type { Problems } from '@/lib/auth/form-rules';

/**
 * A form's state without react-hook-form (issue 33: the account pages' weight): the field
 * problems (error codes) from the form's rules, a failure above the form, and a busy flag. The
 * rules run on submit; the server's answer lands on its field when the form has that field.
 */
export function usePlainForm<V>(rules: (values: V) => Problems, fields: readonly string[]) {
  const [problems, setProblems] = useState<Problems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** Checks `values`; when they pass, sends them with `send` and shows a failed answer. */
  async function submit(values: V, send: (values: V) => Promise<ApiAnswer | void>) {
    setFailure(null);
    const found = rules(values);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      // Like react-hook-form did: focus the first field with a problem.
      const first = fields.find((field) => field in found);
      if (first) document.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await send(values);
      if (!answer || answer.status === 'ok') return;
      const field = typeof answer.field === 'string' ? answer.field : undefined;
      const code = answer.errorCode ?? 'error_contact_us';
      if (field && fields.includes(field)) setProblems({ [field]: code });
      else setFailure(code);
    } finally {
      setBusy(false);
    }
  }

  return { problems, failure, busy, submit };
}

/** A form's text fields as strings (FormData), for the rules and the request. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of new FormData(form)) if (typeof value === 'string') values[key] = value;
  return values;
}
