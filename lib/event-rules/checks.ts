// The event checks of SPEC point 5 that need more than one field, written once: the server's
// schema (schemas.ts, checkEvent) and event-values.ts run them on a request, the schedule wizard
// (lib/schedule/draft.ts) on each step — without zod in the page. Every answer is a code of the
// catalogue (SPEC point 8). Pure.
import type { ErrorCode } from '@/lib/errors';
import { DEFAULT_TITLE, EVENT_PASSWORD_MIN, leadMinutes, notificationKey, TITLE_MIN, type TimeType } from './limits';

/** SPEC point 3: an empty title is "(No Title)". */
export const titleOf = (title: string) => title.trim() || DEFAULT_TITLE;

/** SPEC point 5: a name has at least 5 characters. */
export const titleFits = (title: string) => titleOf(title).length >= TITLE_MIN;

/** SPEC point 5: no meeting in the past (its start before now: the same instant in any zone). */
export const startsInPast = (startMs: number, nowMs: number) => startMs < nowMs;

/** Without repeat, only reminders that fall after now (SPEC point 5). */
export function remindersFit(startMs: number, notifications: readonly { time: number; timeType: TimeType }[], nowMs: number): boolean {
  return notifications.every((n) => startMs - leadMinutes(n) * 60_000 >= nowMs);
}

/** True when the same period is listed twice ('Not added, such notification was already added'). */
export function hasDuplicateReminder(notifications: readonly { type?: string; time: number; timeType: string }[]): boolean {
  const keys = notifications.map(notificationKey);
  return new Set(keys).size !== keys.length;
}

export interface EventProblem {
  field: 'notifications' | 'attendees' | 'password' | 'repeatCustom';
  code: ErrorCode;
}

/**
 * The rules across fields of an event body: no reminder period twice, no attendee twice (by
 * lower-cased address), a custom password of at least 8 when one is given, a custom repeat with
 * its rule. `passwordRequired`: an empty custom password is refused too (the room has none to keep).
 */
export function eventProblems(
  event: {
    notifications?: readonly { type?: string; time: number; timeType: string }[];
    attendees?: readonly { email: string }[];
    passwordMode?: string;
    password?: string;
    repeatType?: string;
    repeatCustom?: unknown;
  },
  options: { passwordRequired?: boolean } = {},
): EventProblem[] {
  const problems: EventProblem[] = [];
  if (hasDuplicateReminder(event.notifications ?? [])) problems.push({ field: 'notifications', code: 'notification_not_added' });
  const emails = (event.attendees ?? []).map((a) => a.email.toLowerCase());
  if (new Set(emails).size !== emails.length) problems.push({ field: 'attendees', code: 'contact_exists' });
  const password = event.password ?? '';
  if (event.passwordMode === 'custom' && (password || options.passwordRequired) && password.length < EVENT_PASSWORD_MIN) {
    problems.push({ field: 'password', code: 'room_password_length' });
  }
  if (event.repeatType === 'custom' && !event.repeatCustom) problems.push({ field: 'repeatCustom', code: 'missing_data' });
  return problems;
}
