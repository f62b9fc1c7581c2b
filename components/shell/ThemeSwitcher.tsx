'use client';

import { useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import { THEME_COOKIE, isTheme, themes, type Theme } from '@/lib/theme';

/** Green or blue; kept in a cookie so the server renders the chosen theme from the first byte. */
export function ThemeSwitcher({ initial }: { initial: Theme }) {
  const t = useTranslations('Theme');
  const id = useId();
  const [theme, setTheme] = useState<Theme>(initial);

  function change(next: string) {
    if (!isTheme(next)) return;
    setTheme(next);
    document.documentElement.dataset.theme = next;
    document.cookie = `${THEME_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
  }

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-slate-500 uppercase">
        {t('label')}
      </label>
      <select
        id={id}
        value={theme}
        onChange={(event) => change(event.target.value)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
      >
        {themes.map((name) => (
          <option key={name} value={name}>
            {t(name)}
          </option>
        ))}
      </select>
    </div>
  );
}
