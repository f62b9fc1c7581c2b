import '../globals.css';
import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { setRequestLocale } from 'next-intl/server';
import { BuildTrustNotice } from '@/components/public/BuildTrustNotice';
import { ChunkErrorPrompt } from '@/components/public/ChunkErrorPrompt';
import { earlyInputGuard } from '@/lib/early-input';
import { policyLinkGuard } from '@/lib/navigation/policy-links';
import { shellState } from '@/lib/page/shell-state';
import { config } from '@/lib/environment';
import { htmlLang } from '@/lib/i18n/locales';
import { registerServiceWorker } from '@/lib/pwa/register';
import { routing } from '@/lib/i18n/routing';

export const viewport: Viewport = { themeColor: '#1f7a4d', width: 'device-width', initialScale: 1 };

// What every page shares in its <head>: absolute URLs for canonical/Open Graph, the icons and
// the web app manifest (the PWA of /download).
export function generateMetadata(): Metadata {
  return {
    metadataBase: new URL(config.appUrl),
    applicationName: config.brandName,
    manifest: '/manifest.webmanifest',
    icons: {
      icon: [
        { url: '/favicon.ico', sizes: '32x32' },
        { url: '/icon.svg', type: 'image/svg+xml' },
      ],
      apple: [{ url: '/apple-touch-icon.png', sizes: '180x180' }],
    },
  };
}

/**
 * The document of every localized page, and nothing that ships JavaScript: the app's client
 * providers live in the frames below it (components/shell/ShellFrame, the meeting's layout), so a
 * public page sends only the islands it renders.
 */
export default async function LocaleLayout({ children, params }: LayoutProps<'/[locale]'>) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);

  const [{ theme }, nonce] = await Promise.all([shellState(), headers().then((h) => h.get('x-nonce') ?? undefined)]);

  return (
    <html lang={htmlLang(locale)} data-theme={theme}>
      <body>
        <ChunkErrorPrompt nonce={nonce} />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: policyLinkGuard }} />
        {/* Before {children}: it must run before any button the server drew is on the screen. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: earlyInputGuard }} />
        {children}
        {config.production && <BuildTrustNotice nonce={nonce} />}
        {config.production && <script nonce={nonce} dangerouslySetInnerHTML={{ __html: registerServiceWorker }} />}
      </body>
    </html>
  );
}
