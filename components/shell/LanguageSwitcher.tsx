'use client';

import { useTransition } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { useParams } from 'next/navigation';
import { apiPost } from '@/lib/api/browser';
import { isLocale } from '@/lib/i18n/locales';
import { usePathname } from '@/lib/i18n/links';
import { useRouter } from '@/lib/navigation/router';
import { LanguagePicker } from '@/components/i18n/LanguagePicker';

/** The app frame's language selector with flags (SPEC point 1): saved to the user, or as the guest's language. */
export function LanguageSwitcher() {
  const t = useTranslations('Language');
  const locale = useLocale();
  const router = useRouter();
  const pathname = usePathname();
  const params = useParams();
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

  return <LanguagePicker locale={isLocale(locale) ? locale : 'en'} label={t('label')} disabled={pending} onChange={change} />;
}
