import '../globals.css';
import { notFound } from 'next/navigation';
import { hasLocale, NextIntlClientProvider } from 'next-intl';
import { setRequestLocale } from 'next-intl/server';
import { Providers } from '@/components/Providers';
import { shellState } from '@/lib/auth/shell-state';
import { config } from '@/lib/config';
import { htmlLang } from '@/lib/i18n/locales';
import { routing } from '@/lib/i18n/routing';

export default async function LocaleLayout({
  children,
  params,
}: {
  children: React.ReactNode;
  params: Promise<{ locale: string }>;
}) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);

  const { user, theme } = await shellState();

  return (
    <html lang={htmlLang(locale)} data-theme={theme}>
      <body>
        <NextIntlClientProvider>
          <Providers brand={config.brandName} user={user}>
            {children}
          </Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
