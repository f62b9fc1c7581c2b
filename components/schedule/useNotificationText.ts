'use client';

import { useTranslations } from 'next-intl';

type ChoiceKey = 'minutes15' | 'minutes30' | 'hour1' | 'hour3' | 'day1';

/** "15 minutes before": a reminder's period in words (the five choices of SPEC point 9). */
export function useNotificationText() {
  const t = useTranslations('Schedule');
  return (n: { time: number; timeType: string }) => t(`notificationChoices.${`${n.timeType}${n.time}` as ChoiceKey}`);
}
