import { NextIntlClientProvider } from 'next-intl';
import { Providers } from '@/components/Providers';
import { shellState } from '@/lib/page/shell-state';
import { config } from '@/lib/environment';
import { clientMessages } from '@/lib/i18n/client-messages';
import { meetingFrameNamespaces } from '@/lib/i18n/client-namespaces';
import { pageLocale } from '@/lib/i18n/page';

// The meeting fills the window without the app's sidebar, but keeps its toasts and dialogs.
export default async function MeetingLayout({ children, params }: LayoutProps<'/[locale]/now'>) {
  await pageLocale(params);
  const [{ user }, messages] = await Promise.all([shellState(), clientMessages(meetingFrameNamespaces)]);
  return (
    <NextIntlClientProvider messages={messages}>
      <Providers brand={config.brandName} user={user}>
        {children}
      </Providers>
    </NextIntlClientProvider>
  );
}
