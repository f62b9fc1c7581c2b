'use client';

import { useId, useState } from 'react';
import { apiPost } from '@/lib/api/client';
import { isLocale, locales, type Locale } from '@/lib/i18n/locales';
import { switchLocalePath } from '@/lib/seo/pages';

/**
 * The language selector of the public pages (SPEC point 1: saved to the user, or as the guest's
 * language). A few lines of plain DOM instead of the app's next-intl router, so that these pages
 * stay light; the labels come from the server.
 */
export function PublicLanguageSelect({ locale, label, names }: { locale: Locale; label: string; names: Record<Locale, string> }) {
  const id = useId();
  const [pending, setPending] = useState(false);

  async function change(next: string) {
    if (!isLocale(next) || next === locale) return;
    setPending(true);
    await apiPost('/api/lang', { lang: next });
    const { pathname, search, hash } = window.location;
    // A full load on purpose: the server renders the page in the new language; this island has no router.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign(`${switchLocalePath(pathname, next)}${search}${hash}`);
  }

  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-slate-600">
        {label}
      </label>
      <select
        id={id}
        defaultValue={locale}
        disabled={pending}
        onChange={(event) => void change(event.target.value)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
      >
        {locales.map((code) => (
          <option key={code} value={code} lang={code}>
            {names[code]}
          </option>
        ))}
      </select>
    </div>
  );
}
