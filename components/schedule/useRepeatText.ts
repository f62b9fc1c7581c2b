'use client';

import { useLocale, useTranslations } from 'next-intl';
import { weekdayCodes, type CustomRepeat, type WeekdayCode } from '@/lib/events/rules/repeat';
import type { Draft } from '@/lib/schedule/draft';
import { addDays, dateForFormatting } from '@/lib/time/zoned';

/** A Monday, to name the days of the week through Intl. */
const A_MONDAY = '2026-11-23';

export function useWeekdayName() {
  const locale = useLocale();
  const format = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  return (code: WeekdayCode) => format.format(dateForFormatting(addDays(A_MONDAY, weekdayCodes.indexOf(code))));
}

/** "Every 2 weeks, on Monday, Wednesday, until 31 December 2026": a custom rule in words. */
export function useRepeatText() {
  const t = useTranslations('Schedule');
  const locale = useLocale();
  const weekday = useWeekdayName();
  return (draft: Pick<Draft, 'repeatType' | 'repeatCustom'>) => {
    if (draft.repeatType !== 'custom' || !draft.repeatCustom) return t(`repeatTypes.${draft.repeatType}`);
    const rule: CustomRepeat = draft.repeatCustom;
    const parts = [t(`every.${rule.freq}`, { count: rule.interval })];
    if (rule.freq === 'weekly' && rule.weekdays?.length) {
      parts.push(t('onDays', { days: new Intl.ListFormat(locale).format(rule.weekdays.map(weekday)) }));
    }
    if (rule.freq === 'monthly' && rule.monthly) {
      const m = rule.monthly;
      parts.push(
        m.mode === 'day'
          ? m.day === -1
            ? t('onLastDay')
            : t('onDayOfMonth', { day: m.day })
          : t('onNthWeekday', { nth: t(`nth.${m.n === -1 ? 'last' : String(m.n)}` as 'nth.1'), weekday: weekday(m.weekday) }),
      );
    }
    if (rule.end?.type === 'until') {
      const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(dateForFormatting(rule.end.date));
      parts.push(t('until', { date }));
    }
    if (rule.end?.type === 'count') parts.push(t('times', { count: rule.end.count }));
    return parts.join(', ');
  };
}
