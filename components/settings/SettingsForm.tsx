'use client';

import { useId, useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { useParams } from 'next/navigation';
import { apiPost } from '@/lib/api/browser';
import { toastForAnswer } from '@/lib/toast/queue';
import { localeOptionLabel, locales, type Locale } from '@/lib/i18n/locales';
import { usePathname } from '@/lib/i18n/links';
import { useRouter } from '@/lib/navigation/router';
import { THEME_COOKIE, themes, type Theme } from '@/lib/theme';
import { useToast } from '@/components/toast/ToastProvider';
import { useErrorText } from '@/components/forms/useErrorText';
import { TimezoneSelect } from '@/components/forms/TimezoneSelect';

export interface SettingsValues {
  timezone: string;
  tooltips: boolean;
  preferredRegion: 'na' | 'eu';
  lang: Locale;
  theme: Theme;
}

/**
 * /settings, "Preferences": time zone, tooltips, language, theme (SPEC point 2) and, with
 * `showRegion` (billing on: it picks the currency of prices), the preferred region.
 */
export function SettingsForm({ initial, showRegion }: { initial: SettingsValues; showRegion: boolean }) {
  const t = useTranslations('Settings');
  const themeText = useTranslations('Theme');
  const toastText = useTranslations('Toast');
  const errorText = useErrorText();
  const toast = useToast();
  const locale = useLocale();
  const router = useRouter();
  const pathname = usePathname();
  const params = useParams();
  const [values, setValues] = useState(initial);
  const [busy, setBusy] = useState(false);
  const zoneId = useId();
  const set = <K extends keyof SettingsValues>(key: K, value: SettingsValues[K]) => setValues((current) => ({ ...current, [key]: value }));

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    const { preferredRegion, ...rest } = values;
    const answer = await apiPost('/api/me', showRegion ? { ...rest, preferredRegion } : rest);
    setBusy(false);
    const shown = toastForAnswer(answer.status === 'error' ? { ...answer, message: errorText(answer.errorCode) } : answer, toastText('success'));
    if (shown) toast.show(shown);
    if (answer.status !== 'ok') return;
    document.documentElement.dataset.theme = values.theme;
    document.cookie = `${THEME_COOKIE}=${values.theme}; path=/; max-age=31536000; samesite=lax`;
    if (values.lang !== locale) {
      // @ts-expect-error -- pathname and params come from the current route, so they match.
      router.replace({ pathname, params }, { locale: values.lang });
    }
    router.refresh();
  }

  const select = 'rounded-md border border-slate-300 bg-white px-3 py-2';
  return (
    <form onSubmit={save} className="flex max-w-lg flex-col gap-5">
      <div className="flex flex-col gap-1">
        <label htmlFor={zoneId} className="text-sm font-medium">
          {t('timezone')}
        </label>
        <TimezoneSelect id={zoneId} value={values.timezone} onChange={(zone) => set('timezone', zone)} />
      </div>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={values.tooltips} onChange={(e) => set('tooltips', e.target.checked)} />
        <span>{t('tooltips')}</span>
      </label>
      {showRegion && (
        <fieldset className="flex flex-col gap-1">
          <legend className="text-sm font-medium">{t('region')}</legend>
          {(['na', 'eu'] as const).map((region) => (
            <label key={region} className="flex items-center gap-2">
              <input
                type="radio"
                name="preferredRegion"
                value={region}
                checked={values.preferredRegion === region}
                onChange={() => set('preferredRegion', region)}
              />
              {t(region === 'na' ? 'regionNa' : 'regionEu')}
            </label>
          ))}
        </fieldset>
      )}
      <label className="flex flex-col gap-1">
        <span className="text-sm font-medium">{t('language')}</span>
        <select className={select} value={values.lang} onChange={(e) => set('lang', e.target.value as Locale)}>
          {locales.map((code) => (
            <option key={code} value={code} lang={code}>
              {localeOptionLabel(code)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-sm font-medium">{t('theme')}</span>
        <select className={select} value={values.theme} onChange={(e) => set('theme', e.target.value as Theme)}>
          {themes.map((name) => (
            <option key={name} value={name}>
              {themeText(name)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button-primary self-start" disabled={busy}>
        {t('save')}
      </button>
    </form>
  );
}
