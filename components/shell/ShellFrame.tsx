import { NextIntlClientProvider } from 'next-intl';
import { Providers } from '@/components/Providers';
import { shellState } from '@/lib/page/shell-state';
import { getBrandName } from '@/lib/configuration/brand';
import { clientMessages } from '@/lib/i18n/client-messages';
import { frameNamespaces } from '@/lib/i18n/client-namespaces';
import { AppShell } from './AppShell';

/**
 * The application's frame (sidebar or drawer, modals, toasts) around a page of the app. Its
 * client provider carries the frame's namespaces; each page adds its own (PageMessages).
 */
export async function ShellFrame({ children }: { children: React.ReactNode }) {
  const [{ user, theme }, messages, brand] = await Promise.all([shellState(), clientMessages(frameNamespaces), getBrandName()]);
  return (
    <NextIntlClientProvider messages={messages}>
      <Providers brand={brand} user={user}>
        <AppShell user={user} brand={brand} theme={theme}>
          {children}
        </AppShell>
      </Providers>
    </NextIntlClientProvider>
  );
}
