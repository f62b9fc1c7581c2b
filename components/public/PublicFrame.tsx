import Link from 'next/link';
import { headers } from 'next/headers';
import { getLocale, getTranslations } from 'next-intl/server';
import { getCurrentUser } from '@/lib/auth/session';
import { config } from '@/lib/environment';
import { getBrandName } from '@/lib/configuration/brand';
import { isLocale, type Locale } from '@/lib/i18n/locales';
import { publicSite } from '@/lib/seo/site-shape';
import { keepPageOffline } from '@/lib/pwa/register';
import { localizedPath } from '@/lib/seo/pages';
import { NavigationEffects } from '@/components/shell/NavigationEffects';
import { BrandMark } from './BrandMark';
import { PublicLanguageSelect } from './PublicLanguageSelect';
import { PublicMenu } from './PublicMenu';

/**
 * The frame of the public pages (home for visitors, enterprise, FAQ, download, terms, security,
 * rate): a header and a footer rendered on the server. Its only JavaScript is the language
 * selector, the menu button of narrow screens and the route history (SPEC point 2); the links
 * are plain next/link, already part of every Next page. Its links follow the pages this server
 * has (issue 35): pricing only with billing on, sales only on the marketing site, the privacy
 * policy always, the imprint where the operator wrote one.
 */
export async function PublicFrame({ children }: { children: React.ReactNode }) {
  const requested = await getLocale();
  const locale: Locale = isLocale(requested) ? requested : 'en';
  const [t, language, user, nonce, site, brand] = await Promise.all([
    getTranslations('Public'),
    getTranslations('Language'),
    getCurrentUser().catch(() => null),
    headers().then((h) => h.get('x-nonce') ?? undefined),
    publicSite(),
    // The name the admin set (issue 48, point 5): the logo and the footer's copyright show it.
    getBrandName(),
  ]);
  const marketing = site.homePage === 'marketing';
  const href = (path: string) => localizedPath(locale, path);

  const primary = [
    ...(marketing && site.billingOn ? [{ href: `${href('/')}#plans`, label: t('pricing') }] : []),
    ...(marketing ? [{ href: href('/enterprise'), label: t('enterprise') }] : []),
    { href: href('/faq'), label: t('faq') },
    { href: href('/download'), label: t('download') },
    { href: href('/security'), label: t('security') },
  ];
  const account = user ? (
    <Link href={href('/')} className="button-primary">
      {t('openApp', { brand })}
    </Link>
  ) : (
    <>
      <Link href={href('/login')} className="button-secondary">
        {t('login')}
      </Link>
      {site.registrationOpen && (
        <Link href={href('/register')} className="button-primary">
          {site.billingOn ? t('register') : t('registerPlain')}
        </Link>
      )}
    </>
  );

  return (
    <div className="flex min-h-screen flex-col bg-white">
      <NavigationEffects />
      {config.production && <script nonce={nonce} dangerouslySetInnerHTML={{ __html: keepPageOffline }} />}
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t('skipToContent')}
      </a>
      {/* Below lg (1200 px) the site links and, on a phone, the account links fold into a menu: the bar stays one row (issue 33). */}
      <header className="relative border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center gap-x-6 px-4 py-3 sm:px-6">
          <Link href={href('/')} className="flex shrink-0 items-center gap-2 text-xl font-bold text-brand">
            <BrandMark className="h-8 w-8" />
            {brand}
          </Link>
          <nav aria-label={t('navigation')} className="hidden lg:block">
            <ul className="flex gap-x-5 text-sm font-medium text-slate-700">
              {primary.map((item) => (
                <li key={item.href}>
                  <Link href={item.href} className="rounded px-1 py-1 whitespace-nowrap hover:text-brand">
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="ml-auto flex items-center gap-2">
            <div className="hidden items-center gap-2 sm:flex">{account}</div>
            <PublicMenu label={t('menu')}>
              <nav aria-label={t('navigation')} className="mx-auto max-w-6xl px-4 py-3 sm:px-6">
                <ul className="flex flex-col text-base font-medium text-slate-700">
                  {primary.map((item) => (
                    <li key={item.href}>
                      <Link href={item.href} className="block rounded-md px-2 py-2.5 hover:bg-slate-100 hover:text-brand">
                        {item.label}
                      </Link>
                    </li>
                  ))}
                </ul>
                <div className="mt-3 flex flex-wrap gap-2 border-t border-slate-200 pt-3 sm:hidden">{account}</div>
              </nav>
            </PublicMenu>
          </div>
        </div>
      </header>

      <main id="main" className="flex-1">
        {children}
      </main>

      <footer className="border-t border-slate-200 bg-slate-50">
        <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 text-sm text-slate-600 sm:px-6 md:grid-cols-[1fr_auto]">
          <div className="flex flex-col gap-2">
            <p className="font-semibold text-slate-900">{brand}</p>
            <p>{t('tagline')}</p>
            <p>{t('copyright', { year: new Date().getFullYear(), brand })}</p>
          </div>
          <div className="flex flex-col gap-4 md:items-end">
            <nav aria-label={t('footerNavigation', { brand })}>
              <ul className="flex flex-wrap gap-x-5 gap-y-2">
                <li>
                  <Link href={href('/terms-of-service')} className="hover:text-brand">
                    {t('terms')}
                  </Link>
                </li>
                <li>
                  <Link href={href('/security')} className="hover:text-brand">
                    {t('security')}
                  </Link>
                </li>
                <li>
                  <a href="/white-paper.pdf" className="hover:text-brand">
                    {t('whitePaper')}
                  </a>
                </li>
                <li>
                  <Link href={href('/privacy')} className="hover:text-brand">
                    {t('privacy')}
                  </Link>
                </li>
                {site.hasImprint && (
                  <li>
                    <Link href={href('/imprint')} className="hover:text-brand">
                      {t('imprint')}
                    </Link>
                  </li>
                )}
                {marketing && site.contactEmail && (
                  <li>
                    <Link href={`${href('/enterprise')}#contact`} className="hover:text-brand">
                      {t('contactSales')}
                    </Link>
                  </li>
                )}
                <li>
                  <Link href={href('/rate')} className="hover:text-brand">
                    {t('rate')}
                  </Link>
                </li>
              </ul>
            </nav>
            <PublicLanguageSelect locale={locale} label={language('label')} />
          </div>
        </div>
      </footer>
    </div>
  );
}
