import type { Locale } from '@/lib/i18n/locales';
import { loadMessages } from '@/lib/i18n/messages';
import type { ErrorCode } from './errors';

/** The localized text for an error code (English when a translation lacks it). */
export async function errorMessage(code: ErrorCode, locale: Locale): Promise<string> {
  const messages = await loadMessages(locale);
  return (messages.Errors as Record<string, string>)[code] ?? code;
}
