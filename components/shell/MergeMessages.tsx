'use client';

import { useMemo } from 'react';
import { NextIntlClientProvider, useLocale, useMessages } from 'next-intl';

/**
 * A client provider with the surrounding provider's messages plus `messages`: next-intl's
 * providers replace their parent's messages instead of adding to them.
 */
export function MergeMessages({ messages, children }: { messages: Record<string, unknown>; children: React.ReactNode }) {
  const parent = useMessages();
  const locale = useLocale();
  const merged = useMemo(() => ({ ...parent, ...messages }), [parent, messages]);
  return (
    <NextIntlClientProvider locale={locale} messages={merged}>
      {children}
    </NextIntlClientProvider>
  );
}
