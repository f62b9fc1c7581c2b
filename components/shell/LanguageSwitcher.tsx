'use client';

import { useId, useTransition } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { useParams } from 'next/navigation';
import { apiPost } from '@/lib/api/client';
import { isLocale, localeOptionLabel, locales } from '@/lib/i18n/locales';
import { usePathname, useRouter } from '@/lib/i18n/links';

/** The language selector (each language in its own script and its code; no flags, see lib/i18n/locales.ts): saved to the user, or as the guest's language. */
export function LanguageSwitcher() {
  const t = useTranslations('Language');
  const locale = useLocale();
  const router = useRouter();
  const pathname = usePathname();
  const params = useParams();
  const id = useId();
  const [pending, startTransition] = useTransition();

  function change(next: string) {
    if (!isLocale(next) || next === locale) return;
    startTransition(async () => {
      await apiPost('/api/lang', { lang: next });
      // @ts-expect-error -- pathname and params come from the current route, so they match.
      router.replace({ pathname, params }, { locale: next });
      router.refresh();
    });
  }

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-slate-500 uppercase">
        {t('label')}
      </label>
      <select
        id={id}
        value={locale}
        disabled={pending}
        onChange={(event) => change(event.target.value)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
      >
        {locales.map((code) => (
          <option key={code} value={code} lang={code}>
            {localeOptionLabel(code)}
          </option>
        ))}
      </select>
    </div>
  );
}
