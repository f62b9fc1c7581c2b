'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { formatRecoveryCode } from '@/lib/auth/two-factor-format';

/** SPEC point 7: recoveryCode comes as a list or a JSON string; every code of it (issue 48, point 6). */
export function recoveryCodesOf(raw: unknown): string[] {
  let list = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw) as unknown;
    } catch {
      list = [raw];
    }
  }
  return (Array.isArray(list) ? list : [list]).filter((code) => code !== null && code !== undefined).map(String);
}

/**
 * The recovery codes, shown once: a labelled, dashed amber box (unlike the app's six digits, issue
 * 33 point 7), one code per line, with a Copy button for a password manager.
 */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  const t = useTranslations('AccountModal');
  const [copied, setCopied] = useState(false);
  const shown = codes.map(formatRecoveryCode);

  async function copy() {
    try {
      await navigator.clipboard.writeText(shown.join('\n'));
      setCopied(true);
    } catch {
      // No clipboard (an insecure context, a refused permission): the codes stay visible to copy by hand.
    }
  }

  return (
    <section aria-labelledby="recovery-code-label" className="rounded-lg border-2 border-dashed border-amber-500 bg-amber-50 p-4 text-center">
      <h4 id="recovery-code-label" className="text-sm font-semibold text-amber-900">
        {t('recoveryLabel')}
      </h4>
      <ol className="mt-3 grid grid-cols-1 gap-1 font-mono text-lg font-semibold text-amber-950 select-all sm:grid-cols-2" data-testid="recovery-codes">
        {shown.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <div className="mt-3 flex items-center justify-center gap-2">
        <button type="button" className="button-secondary" onClick={() => void copy()}>
          {t('copyKey')}
        </button>
        <span role="status" className="text-sm text-emerald-700">
          {copied ? t('keyCopied') : ''}
        </span>
      </div>
    </section>
  );
}
