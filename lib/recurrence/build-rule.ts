// Rule building: the RRULE (RFC 5545) of a repeat choice of the wizard (SPEC points 2 and 3), and
// the editing of a rule's parts when a series is split. Wall clocks come from lib/time. Pure.
import { fromFloating, toFloating } from '@/lib/time/floating';
import { weekdayCodes, type CustomRepeat, type RepeatEnd, type RepeatType } from '@/lib/event-rules/repeat';

const freqCode = { daily: 'DAILY', weekly: 'WEEKLY', monthly: 'MONTHLY', annually: 'YEARLY' } as const;

/**
 * The RRULE of a repeat choice for a meeting that starts at `start` (wall clock in its zone).
 * `end` ends the series of the plain repeat types (issue 33); a custom rule carries its own.
 */
export function buildRRule(repeatType: RepeatType, start: Date, timezone: string, custom?: CustomRepeat | null, end?: RepeatEnd | null): string | null {
  const rule = ruleWithoutEnd(repeatType, start, timezone, custom);
  if (!rule) return null;
  return withEnd(rule, (repeatType === 'custom' ? custom?.end : end) ?? { type: 'never' }, timezone);
}

/** COUNT or UNTIL appended to a rule. */
function withEnd(rule: string, end: RepeatEnd, timezone: string): string {
  if (end.type === 'count') return `${rule};COUNT=${end.count}`;
  if (end.type === 'until') return `${rule};UNTIL=${untilOfDate(end.date, timezone)}`;
  return rule;
}

function ruleWithoutEnd(repeatType: RepeatType, start: Date, timezone: string, custom?: CustomRepeat | null): string | null {
  const local = new Date(toFloating(start.getTime(), timezone));
  const [month, day] = [local.getUTCMonth() + 1, local.getUTCDate()];
  const weekday = weekdayCodes[(local.getUTCDay() + 6) % 7]!;
  switch (repeatType) {
    case 'none':
      return null;
    case 'daily':
      return 'FREQ=DAILY';
    case 'weekly':
      return `FREQ=WEEKLY;BYDAY=${weekday}`;
    // RFC 5545: a month without that day is skipped (the 31st repeats only in long months);
    // "the last day of the month" is the custom rule BYMONTHDAY=-1.
    case 'monthly':
      return `FREQ=MONTHLY;BYMONTHDAY=${day}`;
    case 'annually':
      return `FREQ=YEARLY;BYMONTH=${month};BYMONTHDAY=${day}`;
    case 'weekdays':
      return 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR';
    case 'custom': {
      if (!custom) return null;
      const parts = [`FREQ=${freqCode[custom.freq]}`];
      if (custom.interval > 1) parts.push(`INTERVAL=${custom.interval}`);
      if (custom.freq === 'weekly') {
        const days = custom.weekdays?.length ? weekdayCodes.filter((d) => custom.weekdays!.includes(d)) : [weekday];
        parts.push(`BYDAY=${days.join(',')}`);
      }
      if (custom.freq === 'monthly') {
        const monthly = custom.monthly ?? { mode: 'day', day };
        parts.push(monthly.mode === 'day' ? `BYMONTHDAY=${monthly.day}` : `BYDAY=${monthly.n}${monthly.weekday}`);
      }
      if (custom.freq === 'annually') parts.push(`BYMONTH=${month};BYMONTHDAY=${day}`);
      return parts.join(';');
    }
  }
}

/** The UNTIL (UTC, RFC 5545 basic format) that ends a series on `date` inclusive, in `timezone`. */
export function untilOfDate(date: string, timezone: string): string {
  // 23:59:59 of that day on the wall clock.
  return formatUtc(new Date(fromFloating(Date.parse(`${date}T23:59:59Z`), timezone)));
}

/** 20260301T090000Z */
export function formatUtc(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** A floating time (wall clock as if UTC) in the local form of RFC 5545: 20260329T020000. */
export function formatFloating(floating: number): string {
  return formatUtc(new Date(floating)).slice(0, -1);
}

/** The rule's options as key → value (FREQ, COUNT, UNTIL…), in their order. */
export function ruleParts(rrule: string): Map<string, string> {
  return new Map(
    rrule
      .replace(/^RRULE:/, '')
      .split(';')
      .filter(Boolean)
      .map((part) => part.split('=') as [string, string]),
  );
}

export function joinRuleParts(parts: Map<string, string>): string {
  return [...parts].map(([key, value]) => `${key}=${value}`).join(';');
}
