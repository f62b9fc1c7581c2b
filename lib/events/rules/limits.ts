// The event rules of SPEC points 5 and 9 as plain values, the one place they are written: the
// server's zod schemas (schemas.ts) are built from them, and the schedule wizard checks them in
// the browser without bringing zod (30 KB gz) into the page (issue 17 goal 4).
export const DEFAULT_TITLE = '(No Title)';
export const TITLE_MIN = 5;
export const EVENT_PASSWORD_MIN = 8;

/** SPEC point 9: meeting durations, as h:mm. */
export const durations = ['0:10', '0:15', '0:30', '1:00', '2:00'] as const;
export type Duration = (typeof durations)[number];

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

export const notificationKey = (n: { type?: string; time: number; timeType: string }) =>
  `${n.type ?? 'email'}:${n.time}:${n.timeType}`;
