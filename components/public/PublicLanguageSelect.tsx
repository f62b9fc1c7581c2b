'use client';

import { useState } from 'react';
import { apiPost } from '@/lib/api/browser';
import { isLocale, type Locale } from '@/lib/i18n/locales';
import { switchLocalePath } from '@/lib/seo/pages';
import { LanguagePicker } from '@/components/i18n/LanguagePicker';

/**
 * The language selector of the public pages (SPEC point 1: saved to the user, or as the guest's
 * language), the same flag picker as the app frame. A full page load instead of the app's next-intl
 * router, so that these pages stay light; the label comes from the server.
 */
export function PublicLanguageSelect({ locale, label }: { locale: Locale; label: string }) {
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

  return <LanguagePicker inline locale={locale} label={label} disabled={pending} onChange={(next) => void change(next)} />;
}
