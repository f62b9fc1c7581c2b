import './globals.css';
import Link from 'next/link';
import { headers } from 'next/headers';
import { htmlLang, localeFromAcceptLanguage } from '@/lib/i18n/locales';
import { loadMessages } from '@/lib/i18n/messages';
import { config } from '@/lib/environment';

// Paths outside the localized app (e.g. /some.file) land here; the text follows the browser.
export default async function GlobalNotFound() {
  const locale = localeFromAcceptLanguage((await headers()).get('accept-language'));
  const { NotFound, Routes } = await loadMessages(locale);
  return (
    <html lang={htmlLang(locale)}>
      <head>
        <title>{`${config.brandName} – ${Routes.notFound}`}</title>
      </head>
      <body>
        <main className="mx-auto max-w-xl px-6 py-24 text-center">
          <h1 className="text-3xl font-bold">{NotFound.title}</h1>
          <p className="mt-4 text-slate-600">{NotFound.body}</p>
          <Link href="/" className="button-primary mt-8">
            {NotFound.backHome}
          </Link>
        </main>
      </body>
    </html>
  );
}
