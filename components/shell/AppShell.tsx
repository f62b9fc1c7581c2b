'use client';

import { useEffect, useState } from 'react';
import { useTranslations } from 'next-intl';
import { setAuthErrorHandler } from '@/lib/api/browser';
import type { Theme } from '@/lib/theme';
import { Link } from '@/lib/i18n/links';
import { Dialog } from '@/components/dialog/Dialog';
import { LanguageSwitcher } from './LanguageSwitcher';
import { NavList } from './NavList';
import { ThemeSwitcher } from './ThemeSwitcher';
import { TrialNotice } from './TrialNotice';
import type { ShellUser } from '@/lib/auth/shell-user';

/**
 * The frame around every page but the meeting: a sidebar from the lg breakpoint (1200 px) up,
 * a top bar with a drawer below it (SPEC point 2).
 */
export function AppShell({ user, brand, theme, children }: { user: ShellUser | null; brand: string; theme: Theme; children: React.ReactNode }) {
  const t = useTranslations('Nav');
  const [drawerOpen, setDrawerOpen] = useState(false);

  useEffect(() => {
    // SPEC point 7: an authentication_error with a user in state logs out and goes to /login.
    if (!user) return;
    setAuthErrorHandler(() => {
      // A full page load on purpose: it clears every piece of client state of the old session.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      if (!window.location.pathname.endsWith('/login')) window.location.assign('/logout');
    });
    return () => setAuthErrorHandler(undefined);
  }, [user]);

  const footer = (
    <div className="mt-auto flex flex-col gap-3 border-t border-slate-200 pt-4">
      <LanguageSwitcher />
      <ThemeSwitcher initial={theme} />
      {/* Issue 35: the privacy policy is linked from every page's footer, the app's included. */}
      <Link href="/privacy" className="px-3 text-sm text-slate-600 underline-offset-2 hover:text-brand hover:underline">
        {t('privacy')}
      </Link>
    </div>
  );

  return (
    <div className="min-h-screen lg:flex">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t('skipToContent')}
      </a>
      <aside className="hidden w-64 shrink-0 flex-col border-r border-slate-200 bg-white p-4 lg:sticky lg:top-0 lg:flex lg:h-screen">
        <Link href="/" className="mb-6 px-3 text-xl font-bold text-brand">
          {brand}
        </Link>
        <nav aria-label={t('mainNavigation')} className="overflow-y-auto">
          <NavList user={user} />
        </nav>
        {footer}
      </aside>

      <header className="sticky top-[var(--chunk-error-height,0px)] z-30 flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-3 lg:hidden">
        <button
          type="button"
          onClick={() => setDrawerOpen(true)}
          aria-label={t('openMenu')}
          aria-expanded={drawerOpen}
          className="rounded-md p-2 hover:bg-slate-100"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
          </svg>
        </button>
        <Link href="/" className="text-lg font-bold text-brand">
          {brand}
        </Link>
      </header>

      {drawerOpen && (
        <Dialog title={brand} onClose={() => setDrawerOpen(false)} size="max-w-sm">
          <nav aria-label={t('mainNavigation')} className="flex flex-col gap-4">
            <NavList user={user} onNavigate={() => setDrawerOpen(false)} />
            {footer}
          </nav>
        </Dialog>
      )}

      <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-10 lg:py-10">
        {user?.trial && <TrialNotice trial={user.trial} />}
        {children}
      </main>
    </div>
  );
}
