// The event rules of SPEC points 5 and 9 as plain values, the one place they are written: the
// server's zod schemas (schemas.ts) are built from them, and the schedule wizard checks them in
// the browser without bringing zod (30 KB gz) into the page (issue 17 goal 4).
export const DEFAULT_TITLE = '(No Title)';
export const TITLE_MIN = 5;
export const EVENT_PASSWORD_MIN = 8;

/**
 * SPEC point 9's meeting durations, as h:mm, with 45 and 90 minutes added (issue 48): the choices
 * the wizard offers first. Any other whole number of minutes from 1 to DURATION_MAX_MINUTES is
 * accepted too, written the same h:mm way (a custom length; docs/decisions.md).
 */
export const durations = ['0:10', '0:15', '0:30', '0:45', '1:00', '1:30', '2:00'] as const;
/** A meeting's length as h:mm: one of `durations` or a custom one (isDuration()). */
export type Duration = string;
/** The longest meeting, in minutes: half a day, so that a daily series never overlaps itself. */
export const DURATION_MAX_MINUTES = 12 * 60;

/** h:mm with minutes 00–59, from 0:01 to DURATION_MAX_MINUTES. */
export function isDuration(value: unknown): value is Duration {
  if (typeof value !== 'string' || !/^\d{1,2}:[0-5]\d$/.test(value)) return false;
  const minutes = durationMinutes(value);
  return minutes >= 1 && minutes <= DURATION_MAX_MINUTES;
}

export function durationMinutes(duration: string): number {
  const [hours, minutes] = duration.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** SPEC point 9: notification choices before the meeting; the default is e-mail 15 minutes before. */
export const notificationChoices = [
  { time: 15, timeType: 'minutes' },
  { time: 30, timeType: 'minutes' },
  { time: 1, timeType: 'hour' },
  { time: 3, timeType: 'hour' },
  { time: 1, timeType: 'day' },
] as const;
export const timeTypes = ['minutes', 'hour', 'day'] as const;
export type TimeType = (typeof timeTypes)[number];
export const DEFAULT_NOTIFICATIONS = [{ type: 'email' as const, time: 15, timeType: 'minutes' as const }];

export function leadMinutes(notification: { time: number; timeType: TimeType }): number {
  const unit = notification.timeType === 'day' ? 1440 : notification.timeType === 'hour' ? 60 : 1;
  return notification.time * unit;
}

export const notificationKey = (n: { type?: string; time: number; timeType: string }) => `${n.type ?? 'email'}:${n.time}:${n.timeType}`;
