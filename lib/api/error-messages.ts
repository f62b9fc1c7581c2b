import { createTranslator } from 'use-intl/core';
import type { Locale } from '@/lib/i18n/locales';
import { loadMessages } from '@/lib/i18n/messages';
import type { ErrorCode } from '@/lib/errors';

/** The localized text for an error code (English when a translation lacks it). */
export async function errorMessage(code: ErrorCode, locale: Locale): Promise<string> {
  const messages = await loadMessages(locale);
  // Through the formatter, not read raw: the build compiles messages (next.config.mjs).
  const t = createTranslator({ locale, messages, namespace: 'Errors' });
  return t.has(code) ? t(code) : code;
}
