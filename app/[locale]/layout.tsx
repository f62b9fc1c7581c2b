import '../globals.css';
import { notFound } from 'next/navigation';
import { cookies } from 'next/headers';
import { hasLocale, NextIntlClientProvider } from 'next-intl';
import { setRequestLocale } from 'next-intl/server';
import { Providers } from '@/components/Providers';
import { getCurrentUser } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { htmlLang } from '@/lib/i18n/locales';
import { routing } from '@/lib/i18n/routing';
import { isTheme, THEME_COOKIE } from '@/lib/theme';

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

  const user = await getCurrentUser();
  const themeCookie = (await cookies()).get(THEME_COOKIE)?.value;
  const theme = isTheme(themeCookie) ? themeCookie : (user?.theme ?? 'green');
  const shellUser = user
    ? { firstName: user.firstName, lastName: user.lastName, email: user.email, enableMCard: user.enableMCard }
    : null;

  return (
    <html lang={htmlLang(locale)} data-theme={theme}>
      <body>
        <NextIntlClientProvider>
          <Providers brand={config.brandName} user={shellUser}>
            {children}
          </Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
