// A series in words (issue 33): "Every week, on Tuesday, until 12 March 2027", for the wizard
// and for the invitation mail, in the reader's language. The rule is read back from the stored
// RRULE, so every repeat type, custom rules and the end (date or count) are named alike.
// Pure and browser-safe: the texts come from the Schedule messages through `t`.
import { weekdayCodes, type CustomRepeat, type RepeatEnd, type WeekdayCode } from '@/lib/event-rules/repeat';
import { addDays, dateForFormatting, dateIn } from '@/lib/time/zoned';
import { ruleParts } from './build-rule';

/** A translator over the Schedule messages. */
export type ScheduleText = (key: string, values?: Record<string, string | number>) => string;

const FREQS: Record<string, CustomRepeat['freq']> = { DAILY: 'daily', WEEKLY: 'weekly', MONTHLY: 'monthly', YEARLY: 'annually' };
const WORKDAYS = 'MO,TU,WE,TH,FR';
const isWeekday = (code: string): code is WeekdayCode => (weekdayCodes as readonly string[]).includes(code);

/** The RRULE the app wrote, as the custom rule it amounts to; null for a rule it cannot name. */
export function ruleOf(rrule: string, timezone: string): CustomRepeat | null {
  const parts = ruleParts(rrule);
  const freq = FREQS[parts.get('FREQ') ?? ''];
  if (!freq) return null;
  const rule: CustomRepeat = { freq, interval: Math.max(1, Number(parts.get('INTERVAL') ?? 1) || 1) };
  const byday = (parts.get('BYDAY') ?? '').split(',').filter(Boolean);
  if (freq === 'weekly') rule.weekdays = byday.filter(isWeekday);
  if (freq === 'monthly') {
    const day = parts.get('BYMONTHDAY');
    const nth = /^(-?\d)([A-Z]{2})$/.exec(byday[0] ?? '');
    if (day) rule.monthly = { mode: 'day', day: Number(day) };
    else if (nth && isWeekday(nth[2]!)) rule.monthly = { mode: 'nth', n: Number(nth[1]), weekday: nth[2] };
  }
  rule.end = endOf(parts, timezone);
  return rule;
}

function endOf(parts: Map<string, string>, timezone: string): RepeatEnd {
  const count = Number(parts.get('COUNT'));
  if (Number.isInteger(count) && count > 0) return { type: 'count', count };
  const until = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z?$/.exec(parts.get('UNTIL') ?? '');
  if (until) {
    const [, y, mo, d, h, mi, s] = until.map(Number) as number[];
    return { type: 'until', date: dateIn(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!), timezone) };
  }
  return { type: 'never' };
}

/** A Monday, to name the days of the week through Intl. */
const A_MONDAY = '2026-11-23';

export function weekdayName(code: WeekdayCode, locale: string): string {
  const format = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  return format.format(dateForFormatting(addDays(A_MONDAY, weekdayCodes.indexOf(code))));
}

/** "until 12 March 2027" or "10 times"; nothing for a series without end. */
export function endText(end: RepeatEnd | undefined, t: ScheduleText, locale: string): string | null {
  if (end?.type === 'until') {
    return t('until', { date: new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(dateForFormatting(end.date)) });
  }
  if (end?.type === 'count') return t('times', { count: end.count });
  return null;
}

/** "Every 2 weeks, on Monday and Wednesday, until 31 December 2026": a rule in words. */
export function describeRule(rule: CustomRepeat, t: ScheduleText, locale: string): string {
  const days = rule.freq === 'weekly' ? (rule.weekdays ?? []) : [];
  const workdays = rule.interval === 1 && days.join(',') === WORKDAYS;
  const parts = workdays ? [t('repeatTypes.weekdays')] : [t(`every.${rule.freq}`, { count: rule.interval })];
  if (days.length && !workdays) {
    parts.push(t('onDays', { days: new Intl.ListFormat(locale).format(days.map((code) => weekdayName(code, locale))) }));
  }
  if (rule.freq === 'monthly' && rule.monthly) {
    const m = rule.monthly;
    parts.push(
      m.mode === 'day'
        ? m.day === -1
          ? t('onLastDay')
          : t('onDayOfMonth', { day: m.day })
        : t('onNthWeekday', { nth: t(`nth.${m.n === -1 ? 'last' : String(m.n)}`), weekday: weekdayName(m.weekday, locale) }),
    );
  }
  const end = endText(rule.end, t, locale);
  if (end) parts.push(end);
  return parts.join(', ');
}

/** A stored series in words, or null when the meeting does not repeat. */
export function describeRRule(rrule: string | null, timezone: string, t: ScheduleText, locale: string): string | null {
  const rule = rrule ? ruleOf(rrule, timezone) : null;
  return rule ? describeRule(rule, t, locale) : null;
}
