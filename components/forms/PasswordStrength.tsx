'use client';

import { useTranslations } from 'next-intl';
import { passwordStrength } from '@/lib/auth/password-rules';

const colors = ['bg-slate-200', 'bg-red-600', 'bg-orange-500', 'bg-amber-400', 'bg-lime-600', 'bg-emerald-700'];

/** SPEC point 5: the strength bar (lowercase, uppercase, digit, symbol, length over 16). */
export function PasswordStrength({ password }: { password: string }) {
  const t = useTranslations('Forms');
  const score = passwordStrength(password);
  return (
    <div>
      <div
        role="meter"
        aria-valuemin={0}
        aria-valuemax={5}
        aria-valuenow={score}
        aria-valuetext={t(`strengthLabels.${score}` as 'strengthLabels.0')}
        aria-label={t('strength', { score })}
        className="flex gap-1"
      >
        {[1, 2, 3, 4, 5].map((segment) => (
          <span key={segment} className={`h-1.5 flex-1 rounded ${segment <= score ? colors[score] : colors[0]}`} />
        ))}
      </div>
      <p className="mt-1 text-xs text-slate-500">{t(`strengthLabels.${score}` as 'strengthLabels.0')}</p>
    </div>
  );
}
