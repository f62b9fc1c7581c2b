import { createTranslator } from 'use-intl/core';
import de from '@/messages/de.json';
import en from '@/messages/en.json';
import { buildRRule } from '@/lib/recurrence/build-rule';
import { describeRRule, describeRule, ruleOf, type ScheduleText } from '@/lib/recurrence/describe';
import { repeatEndProblem, draftBody, newDraft } from '@/lib/schedule/draft';

const schedule = (locale: 'en' | 'de') => createTranslator({ locale, messages: locale === 'en' ? en : de, namespace: 'Schedule' }) as unknown as ScheduleText;
const BERLIN = 'Europe/Berlin';
// Tuesday 2 March 2027, 10:00 in Berlin.
const tuesday = new Date('2027-03-02T09:00:00Z');

describe('a plain repeat type with an end (issue 33)', () => {
  it('ends a weekly series after a count or on a date, and never by default', () => {
    expect(buildRRule('weekly', tuesday, BERLIN)).toBe('FREQ=WEEKLY;BYDAY=TU');
    expect(buildRRule('weekly', tuesday, BERLIN, null, { type: 'count', count: 10 })).toBe('FREQ=WEEKLY;BYDAY=TU;COUNT=10');
    // The end of 12 March 2027 in Berlin (UTC+1).
    expect(buildRRule('weekly', tuesday, BERLIN, null, { type: 'until', date: '2027-03-12' })).toBe('FREQ=WEEKLY;BYDAY=TU;UNTIL=20270312T225959Z');
    for (const type of ['daily', 'monthly', 'annually', 'weekdays'] as const) {
      expect(buildRRule(type, tuesday, BERLIN, null, { type: 'count', count: 3 })).toMatch(/;COUNT=3$/);
    }
    // A custom rule keeps its own end; the plain end does not apply to it.
    expect(buildRRule('custom', tuesday, BERLIN, { freq: 'daily', interval: 2, end: { type: 'count', count: 4 } }, { type: 'count', count: 9 })).toBe(
      'FREQ=DAILY;INTERVAL=2;COUNT=4',
    );
  });

  it('reads the end back from the rule, for the wizard to edit', () => {
    expect(ruleOf('FREQ=WEEKLY;BYDAY=TU;UNTIL=20270312T225959Z', BERLIN)?.end).toEqual({ type: 'until', date: '2027-03-12' });
    expect(ruleOf('FREQ=DAILY;COUNT=5', BERLIN)?.end).toEqual({ type: 'count', count: 5 });
    expect(ruleOf('FREQ=MONTHLY;BYMONTHDAY=2', BERLIN)?.end).toEqual({ type: 'never' });
  });

  it('is sent by the draft for plain types only, and checked on the repeat step', () => {
    const draft = { ...newDraft({ now: Date.parse('2027-03-01T08:00:00Z'), timezone: BERLIN, roomId: null }), repeatType: 'weekly' as const };
    expect(draftBody({ ...draft, repeatEnd: { type: 'count', count: 10 } }).repeatEnd).toEqual({ type: 'count', count: 10 });
    expect(draftBody({ ...draft, repeatType: 'none', repeatEnd: { type: 'count', count: 10 } }).repeatEnd).toBeNull();
    expect(repeatEndProblem({ ...draft, repeatEnd: { type: 'until', date: '2027-02-01' } })).toBe(true);
    expect(repeatEndProblem({ ...draft, repeatEnd: { type: 'count', count: 0 } })).toBe(true);
    expect(repeatEndProblem({ ...draft, repeatEnd: { type: 'count', count: 10 } })).toBe(false);
  });
});

describe("a series in words, in the reader's language (issue 33)", () => {
  it('names frequency, days and end in English and German', () => {
    expect(describeRRule('FREQ=WEEKLY;BYDAY=TU;UNTIL=20270312T225959Z', BERLIN, schedule('en'), 'en-GB')).toBe('Every week, on Tuesday, until 12 March 2027');
    expect(describeRRule('FREQ=WEEKLY;BYDAY=TU;COUNT=10', BERLIN, schedule('en'), 'en')).toBe('Every week, on Tuesday, 10 times');
    expect(describeRRule('FREQ=WEEKLY;BYDAY=TU;COUNT=10', BERLIN, schedule('de'), 'de')).toBe('Jede Woche, am Dienstag, 10 Mal');
    expect(describeRRule('FREQ=WEEKLY;BYDAY=TU;UNTIL=20270312T225959Z', BERLIN, schedule('de'), 'de')).toBe('Jede Woche, am Dienstag, bis zum 12. März 2027');
  });

  it('names every repeat type the wizard writes', () => {
    const en = schedule('en');
    const of = (rule: string | null) => describeRRule(rule, BERLIN, en, 'en');
    expect(of(null)).toBeNull();
    expect(of(buildRRule('daily', tuesday, BERLIN))).toBe('Every day');
    expect(of(buildRRule('weekdays', tuesday, BERLIN))).toBe('Every weekday (Monday to Friday)');
    expect(of(buildRRule('monthly', tuesday, BERLIN))).toBe('Every month, on day 2');
    expect(of(buildRRule('annually', tuesday, BERLIN))).toBe('Every year');
    expect(of('FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR')).toBe('Every 2 months, on the last Friday');
    expect(describeRule({ freq: 'weekly', interval: 2, weekdays: ['MO', 'WE'], end: { type: 'count', count: 1 } }, en, 'en')).toBe(
      'Every 2 weeks, on Monday and Wednesday, once',
    );
  });
});
