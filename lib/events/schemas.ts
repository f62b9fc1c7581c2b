// The schedule wizard and POST /api/event, /api/event/update share these rules (SPEC points 3 and
// 5); each names the error code of SPEC point 8 it answers with.
import { z } from 'zod';
import { calendarForms } from '@/lib/calendar/compact';
import { checkPasswordProofFields, passwordProofFields } from '@/lib/meeting/room-password.schema';
import { isValidTimezone, normalizeTimezone } from '@/lib/time/timezones';
import { repeatTypes, weekdayCodes } from '@/lib/event-rules/repeat';
import { emailField } from '@/lib/email-field';
import { eventProblems, titleFits, titleOf } from '@/lib/event-rules/checks';
import { DEFAULT_NOTIFICATIONS, DEFAULT_TITLE, isDuration, notificationChoices, timeTypes } from '@/lib/event-rules/limits';

export {
  DEFAULT_NOTIFICATIONS,
  DEFAULT_TITLE,
  DURATION_MAX_MINUTES,
  durationMinutes,
  durations,
  isDuration,
  EVENT_PASSWORD_MIN,
  leadMinutes,
  notificationChoices,
  notificationKey,
  timeTypes,
  TITLE_MIN,
  type Duration,
  type TimeType,
} from '@/lib/event-rules/limits';
export { formatDuration } from '@/lib/event-rules/duration';

export const notificationSchema = z
  .object({
    type: z.literal('email', { error: 'incorrect_data' }).default('email'),
    time: z.number({ error: 'incorrect_data' }).int('incorrect_data'),
    timeType: z.enum(timeTypes, { error: 'incorrect_data' }),
  })
  .refine((n) => notificationChoices.some((c) => c.time === n.time && c.timeType === n.timeType), 'incorrect_data');
export type NotificationInput = z.output<typeof notificationSchema>;

const email = emailField({ invalid: 'invite_incorrect_email_format' });

/** An attendee is an e-mail address, or {email, name}. */
export const attendeeSchema = z
  .union([email, z.object({ email, name: z.string().trim().max(100, 'incorrect_data').optional() })], {
    error: 'invite_incorrect_email_format',
  })
  .transform((value) => (typeof value === 'string' ? { email: value, name: undefined } : value));

export const customRepeatSchema = z.object({
  freq: z.enum(['daily', 'weekly', 'monthly', 'annually'], { error: 'incorrect_data' }),
  interval: z.number({ error: 'incorrect_data' }).int('incorrect_data').min(1, 'incorrect_data').max(999, 'incorrect_data'),
  weekdays: z
    .array(z.enum(weekdayCodes, { error: 'incorrect_data' }))
    .max(7, 'incorrect_data')
    .optional(),
  monthly: z
    .discriminatedUnion(
      'mode',
      [
        z.object({
          mode: z.literal('day'),
          day: z
            .number()
            .int()
            .refine((d) => (d >= 1 && d <= 31) || d === -1, 'incorrect_data'),
        }),
        z.object({
          mode: z.literal('nth'),
          n: z
            .number()
            .int()
            .refine((n) => (n >= 1 && n <= 4) || n === -1, 'incorrect_data'),
          weekday: z.enum(weekdayCodes),
        }),
      ],
      { error: 'incorrect_data' },
    )
    .optional(),
  end: z
    .discriminatedUnion(
      'type',
      [
        z.object({ type: z.literal('never') }),
        z.object({ type: z.literal('until'), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'incorrect_data') }),
        // A count is how many occurrences the user wants: bounded only to keep input sane.
        z.object({ type: z.literal('count'), count: z.number().int().min(1, 'incorrect_data').max(100_000, 'incorrect_data') }),
      ],
      { error: 'incorrect_data' },
    )
    .optional(),
});

const timezone = z
  .string({ error: 'missing_data' })
  .max(64, 'incorrect_data')
  .refine((zone) => zone === 'UTC' || isValidTimezone(zone), 'incorrect_data')
  .transform(normalizeTimezone);

/** missing_data when the field is absent, incorrect_data when it has the wrong type. */
const missingOrIncorrect = (issue: { input?: unknown }) => (issue.input === undefined ? 'missing_data' : 'incorrect_data');

const uuidish = z.string({ error: 'incorrect_data' }).max(64, 'incorrect_data');

export const eventFields = {
  // SPEC point 3: "(No Title)" when left empty; point 5: a name has at least 5 characters.
  title: z.string({ error: 'incorrect_data' }).trim().max(200, 'incorrect_data').transform(titleOf).refine(titleFits, 'room_title_length'),
  /** Unix seconds. */
  from: z.number({ error: missingOrIncorrect }).int('incorrect_data').min(0, 'incorrect_data').max(32503680000, 'incorrect_data'),
  // One of SPEC point 9's lengths, 45 or 90 minutes, or a custom h:mm up to 12 hours (issue 48).
  duration: z.string({ error: 'incorrect_data' }).refine(isDuration, 'incorrect_data'),
  timezone,
  roomId: uuidish.nullable(),
  repeatType: z.enum(repeatTypes, { error: 'incorrect_data' }),
  repeatCustom: customRepeatSchema.nullable(),
  /**
   * How a daily, weekly, monthly, yearly or weekday series ends (issue 33): the custom rule's own
   * `end`, for the repeat types that have no rule of their own. A custom rule keeps its `end`.
   */
  repeatEnd: customRepeatSchema.shape.end.unwrap().nullable(),
  showAttendees: z.boolean({ error: 'incorrect_data' }),
  attendees: z.array(attendeeSchema, { error: 'incorrect_data' }).max(1000, 'incorrect_data'),
  groups: z.array(uuidish, { error: 'incorrect_data' }).max(100, 'incorrect_data'),
  passwordMode: z.enum(['none', 'custom', 'generated'], { error: 'incorrect_data' }),
  password: z.string({ error: 'incorrect_data' }).max(256, 'incorrect_data'),
  ...passwordProofFields,
  notifications: z.array(notificationSchema, { error: 'incorrect_data' }).max(20, 'incorrect_data'),
  description: z.string({ error: 'incorrect_data' }).trim().max(5000, 'incorrect_data'),
};

/** The rules across fields (lib/event-rules/checks.ts), and the password proof's fields. */
function checkEvent(event: Parameters<typeof eventProblems>[0] & { passwordProof?: string; passwordSalt?: string }, ctx: z.RefinementCtx) {
  // A custom password left out keeps the room's (event-values.ts: refused when the room has none); a form
  // sends a proof instead (lib/meeting/room-password.ts), having checked the length itself.
  const problems = eventProblems(event);
  const add = (list: typeof problems) => list.forEach(({ field, code }) => ctx.addIssue({ code: 'custom', path: [field], message: code }));
  // In the order the API has always reported them: lists first, then the password's fields.
  add(problems.filter((p) => p.field === 'notifications' || p.field === 'attendees'));
  checkPasswordProofFields(event, ctx);
  add(problems.filter((p) => p.field === 'password' || p.field === 'repeatCustom'));
}

const eventObject = z.object({
  title: eventFields.title.default(DEFAULT_TITLE),
  from: eventFields.from,
  duration: eventFields.duration.default('0:30'),
  timezone: eventFields.timezone,
  roomId: eventFields.roomId.optional(),
  repeatType: eventFields.repeatType.default('none'),
  repeatCustom: eventFields.repeatCustom.optional(),
  repeatEnd: eventFields.repeatEnd.optional(),
  showAttendees: eventFields.showAttendees.default(false),
  attendees: eventFields.attendees.default([]),
  groups: eventFields.groups.default([]),
  passwordMode: eventFields.passwordMode.default('none'),
  password: eventFields.password.optional(),
  passwordProof: eventFields.passwordProof,
  passwordSalt: eventFields.passwordSalt,
  notifications: eventFields.notifications.default(DEFAULT_NOTIFICATIONS),
  description: eventFields.description.optional(),
});

export const eventSchema = eventObject.superRefine(checkEvent);
export type EventInput = z.output<typeof eventSchema>;

/**
 * SPEC point 7: the same fields plus the id and repeatUpdate (0 this meeting, 1 this and
 * following); allEvents applies the change to the whole series. An id names an event or one
 * occurrence of a series ({eventId}_{original start in unix seconds}).
 */
export const eventUpdateSchema = eventObject
  .extend({
    id: z.string({ error: 'missing_data' }).max(80, 'event_not_found'),
    repeatUpdate: z.union([z.literal(0), z.literal(1)], { error: 'incorrect_data' }).optional(),
    allEvents: z.boolean({ error: 'incorrect_data' }).optional(),
  })
  .superRefine(checkEvent);
export type EventUpdate = z.output<typeof eventUpdateSchema>;

/** DELETE /api/event/{id}: an optional message for the attendees' cancellation mail. */
export const eventDeleteSchema = z.object({
  message: z.string({ error: 'incorrect_data' }).trim().max(2000, 'incorrect_data').optional(),
});

/** A unix time in a query string. */
const queryTime = z
  .string({ error: missingOrIncorrect })
  .regex(/^\d{1,12}$/, 'incorrect_data')
  .transform(Number);

export const calendarWindowSchema = z
  .object({
    start: queryTime,
    end: queryTime,
    // full (SPEC point 7, the default) or compact (lib/calendar/compact.ts, docs/calendar.md).
    form: z.enum(calendarForms, { error: 'incorrect_data' }).default('full'),
  })
  // A window of at most 400 days: the calendar asks for a month grid at most.
  .refine((w) => w.end > w.start && w.end - w.start <= 400 * 86400, 'incorrect_data');
