import { clientMessages } from '@/lib/i18n/client-messages';
import { pageNamespaces, type PageMessagesName } from '@/lib/i18n/client-namespaces';
import { MergeMessages } from './MergeMessages';

/**
 * Adds a page's own namespaces to its frame's client messages, for the client components of
 * that page (lib/i18n/client-namespaces.ts): the frame carries only what every page shares.
 */
export async function PageMessages({ page, children }: { page: PageMessagesName; children: React.ReactNode }) {
  const messages = await clientMessages(pageNamespaces[page]);
  return <MergeMessages messages={messages}>{children}</MergeMessages>;
}
