'use client';

import { useId, useSyncExternalStore } from 'react';
import { useTranslations } from 'next-intl';
import {
  noiseSuppressionOn,
  noiseSuppressionSupported,
  serverNoiseSuppression,
  setNoiseSuppression,
  subscribeNoiseSuppression,
} from '@/lib/meeting/client/media/noise-suppression-preference';

const never = () => () => {};

/** The noise-suppression switch of the lobby (dark) and the device settings dialog (light). */
export function NoiseSuppressionToggle({ tone }: { tone: 'dark' | 'light' }) {
  const t = useTranslations('Meeting.noise');
  const id = useId();
  const on = useSyncExternalStore(subscribeNoiseSuppression, noiseSuppressionOn, serverNoiseSuppression);
  const supported = useSyncExternalStore(never, noiseSuppressionSupported, () => true);
  return (
    <div className="flex items-start gap-2 text-sm">
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={on && supported}
        disabled={!supported}
        aria-describedby={`${id}-hint`}
        onChange={(event) => setNoiseSuppression(event.target.checked)}
        className="mt-0.5 h-4 w-4 shrink-0 accent-blue-600"
      />
      <div className="min-w-0">
        <label htmlFor={id} className={tone === 'dark' ? 'text-slate-200' : 'font-medium'}>
          {t('label')}
        </label>
        <p id={`${id}-hint`} className={`text-xs ${tone === 'dark' ? 'text-slate-400' : 'text-slate-600'}`}>
          {supported ? t('hint') : t('unsupported')}
        </p>
      </div>
    </div>
  );
}
