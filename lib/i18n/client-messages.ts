import 'server-only';
import { getMessages } from 'next-intl/server';
import type { Messages } from './messages';

/**
 * Namespaces that only server components read: the public pages' texts and the mails. The app's
 * client provider leaves them out, so no page sends them to the browser a second time.
 */
const serverOnly = ['Meta', 'Public', 'ChunkError', 'Home', 'Enterprise', 'Faq', 'Download', 'Security', 'Mail', 'SupportMail'] as const;

/** The messages the app's client components may ask for (everything else). */
export async function appClientMessages(): Promise<Partial<Messages>> {
  const messages = (await getMessages()) as Messages;
  const picked: Partial<Messages> = { ...messages };
  for (const namespace of serverOnly) delete picked[namespace];
  return picked;
}
