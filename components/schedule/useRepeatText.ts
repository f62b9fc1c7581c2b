'use client';

import { useLocale, useTranslations } from 'next-intl';
import { describeRule, endText, weekdayName, type ScheduleText } from '@/lib/recurrence/describe';
import type { WeekdayCode } from '@/lib/event-rules/repeat';
import type { Draft } from '@/lib/schedule/draft';

export function useWeekdayName() {
  const locale = useLocale();
  return (code: WeekdayCode) => weekdayName(code, locale);
}

/**
 * "Every 2 weeks, on Monday, Wednesday, until 31 December 2026": a custom rule in words; a plain
 * repeat type by its name, with its end ("Weekly, 10 times").
 */
export function useRepeatText() {
  const t = useTranslations('Schedule');
  const locale = useLocale();
  const text = t as unknown as ScheduleText;
  return (draft: Pick<Draft, 'repeatType' | 'repeatCustom' | 'repeatEnd'>) => {
    if (draft.repeatType === 'custom' && draft.repeatCustom) return describeRule(draft.repeatCustom, text, locale);
    const name = t(`repeatTypes.${draft.repeatType}`);
    const end = draft.repeatType === 'none' || draft.repeatType === 'custom' ? null : endText(draft.repeatEnd, text, locale);
    return end ? `${name}, ${end}` : name;
  };
}
