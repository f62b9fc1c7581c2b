'use client';

import { useTranslations } from 'next-intl';
import { durationMinutes } from '@/lib/event-rules/limits';

/** "45 minutes", "90 minutes", "2 hours", "2 h 15 min": a meeting's h:mm length in words. */
export function useDurationText() {
  const t = useTranslations('Schedule.durations');
  return (duration: string) => {
    const minutes = durationMinutes(duration);
    if (minutes % 60 === 0) return t('hours', { hours: minutes / 60 });
    if (minutes < 120) return t('minutes', { minutes });
    return t('hoursMinutes', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
  };
}
