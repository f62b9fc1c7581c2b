import 'server-only';
import { getMessages } from 'next-intl/server';
import type { Messages } from './messages';

/** The messages of `namespaces` only, for a client provider (lib/i18n/client-namespaces.ts). */
export async function clientMessages(namespaces: readonly (keyof Messages)[]): Promise<Partial<Messages>> {
  const messages = (await getMessages()) as Messages;
  const picked: Partial<Record<keyof Messages, unknown>> = {};
  for (const namespace of namespaces) picked[namespace] = messages[namespace];
  return picked as Partial<Messages>;
}
