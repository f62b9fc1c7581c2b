'use client';

import { useLocale, useTranslations } from 'next-intl';
import { Link, usePathname } from '@/lib/i18n/links';
import { isLocale } from '@/lib/i18n/locales';
import { localizedPath } from '@/lib/seo/pages';
import { navEntries } from '@/lib/navigation/entries';
import { useModal } from '@/components/dialog/ModalProvider';

export function NavList({ user, onNavigate }: { user: { enableMCard: boolean; isAdmin?: boolean } | null; onNavigate?: () => void }) {
  const t = useTranslations('Nav');
  const locale = useLocale();
  const pathname = usePathname();
  const modal = useModal();
  const item = 'flex w-full items-center rounded-md px-3 py-2 text-left text-sm font-medium hover:bg-brand-soft';

  return (
    <ul className="flex flex-col gap-0.5">
      {navEntries(user).map((entry) => (
        <li key={entry.key}>
          {entry.kind === 'link' && (
            <Link
              href={entry.href}
              onClick={onNavigate}
              aria-current={pathname === entry.href ? 'page' : undefined}
              className={`${item} ${pathname === entry.href ? 'bg-brand-soft text-brand-strong' : 'text-slate-700'}`}
            >
              {t(entry.key)}
            </Link>
          )}
          {entry.kind === 'document' && (
            <a
              href={localizedPath(isLocale(locale) ? locale : 'en', entry.href)}
              aria-current={pathname === entry.href ? 'page' : undefined}
              className={`${item} ${pathname === entry.href ? 'bg-brand-soft text-brand-strong' : 'text-slate-700'}`}
            >
              {t(entry.key)}
            </a>
          )}
          {entry.kind === 'modal' && (
            <button
              type="button"
              className={`${item} text-slate-700`}
              onClick={() => {
                onNavigate?.();
                modal.open(entry.modal);
              }}
            >
              {t(entry.key)}
            </button>
          )}
          {entry.kind === 'logout' && (
            // A plain link: /logout is a GET that ends the session and reloads the app.
            <a href={entry.href} className={`${item} text-slate-700`}>
              {t('logout')}
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}
