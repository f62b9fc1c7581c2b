import { NextIntlClientProvider } from 'next-intl';
import { Providers } from '@/components/Providers';
import { shellState } from '@/lib/auth/shell-state';
import { config } from '@/lib/config';
import { appClientMessages } from '@/lib/i18n/client-messages';
import { AppShell } from './AppShell';

/** The application's frame (sidebar or drawer, modals, toasts) around a page of the app. */
export async function ShellFrame({ children }: { children: React.ReactNode }) {
  const [{ user, theme }, messages] = await Promise.all([shellState(), appClientMessages()]);
  return (
    <NextIntlClientProvider messages={messages}>
      <Providers brand={config.brandName} user={user}>
        <AppShell user={user} brand={config.brandName} theme={theme}>
          {children}
        </AppShell>
      </Providers>
    </NextIntlClientProvider>
  );
}
