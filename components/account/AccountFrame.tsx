import { NextIntlClientProvider } from 'next-intl';
import { AppShell } from '@/components/shell/AppShell';
import { shellState } from '@/lib/page/shell-state';
import { getBrandName } from '@/lib/configuration/brand';
import { publicSiteSettings } from '@/lib/public-site/settings';
import { sfuConfigured } from '@/lib/sfu/nodes';
import { clientMessages } from '@/lib/i18n/client-messages';
import { accountFrameNamespaces } from '@/lib/i18n/client-namespaces';
import { AccountProviders } from './AccountProviders';

/**
 * The frame of the account pages (login, register, forgot and reset password, verify and
 * activate the account; issue 33): the app's sidebar and drawer (SPEC point 2: register, login,
 * app info, the language switcher), without what only a logged-in page needs — toasts, the
 * upcoming-meetings poller, the first-time and billing dialogs, the other modals. For visitors
 * only: a logged-in person gets the app's whole frame (app/[locale]/(account)/layout.tsx).
 */
export async function AccountFrame({ children }: { children: React.ReactNode }) {
  const [{ user, theme }, messages, brand, site] = await Promise.all([
    shellState(),
    clientMessages(accountFrameNamespaces),
    getBrandName(),
    publicSiteSettings(),
  ]);
  return (
    <NextIntlClientProvider messages={messages}>
      <AccountProviders brand={brand} user={user} terms={{ text: site.termsText, billingOn: site.billingOn, hasSfu: sfuConfigured() }}>
        <AppShell user={user} brand={brand} theme={theme}>
          {children}
        </AppShell>
      </AccountProviders>
    </NextIntlClientProvider>
  );
}
