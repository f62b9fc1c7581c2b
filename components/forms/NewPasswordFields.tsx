'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { Field } from './Field';
import { PasswordStrength } from './PasswordStrength';

/** A new password, its strength bar and its confirmation (SPEC point 5): registration and reset. */
export function NewPasswordFields({ problems }: { problems: { password?: string; passwordConfirm?: string } }) {
  const f = useTranslations('Forms');
  const [password, setPassword] = useState('');
  return (
    <>
      <Field
        label={f('password')}
        type="password"
        name="password"
        autoComplete="new-password"
        required
        hint={f('passwordHint')}
        error={problems.password}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <PasswordStrength password={password} />
      <Field label={f('passwordConfirm')} type="password" name="passwordConfirm" autoComplete="new-password" required error={problems.passwordConfirm} />
    </>
  );
}
