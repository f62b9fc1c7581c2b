'use client';

import { useState } from 'react';
import { apiPost } from '@/lib/api/browser';
import { emailOnlyProblems } from '@/lib/auth/form-rules';
import { formValues, usePlainForm } from '@/components/forms/usePlainForm';

const FIELDS = ['email'] as const;

/**
 * A form of one e-mail field that asks the server to send a mail (forgot password: POST
 * /api/password; the activation mail again: POST /invitation) and then says it was sent.
 */
export function useEmailOnlyForm(path: '/api/password' | '/invitation') {
  const [sent, setSent] = useState(false);
  const { problems, failure, busy, submit } = usePlainForm(emailOnlyProblems, FIELDS);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { email = '' } = formValues(event.currentTarget);
    void submit({ email }, async (values) => {
      const answer = await apiPost(path, values);
      if (answer.status === 'ok') setSent(true);
      return answer;
    });
  }

  return { sent, problems, failure, busy, onSubmit };
}
