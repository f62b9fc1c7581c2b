'use client';

import { useTranslations } from 'next-intl';
import { DEFAULT_TITLE } from '@/lib/event-rules/limits';

/** A meeting's title as shown: the stored default "(No Title)" in the interface's language. */
export function useEventTitle(): (title: string) => string {
  const t = useTranslations('Display');
  return (title) => (title === DEFAULT_TITLE ? t('noTitle') : title);
}
