// The schedule wizard's draft (SPEC point 3, "Schedule draft": datetime, repeating, notification
// list, time zone) and the checks each step makes before the next, mirroring the server's rules
// of lib/events/schemas.ts and event-values.ts (lib/event-rules/checks.ts, shared with them) so a
// person learns of a mistake on the step that made it.
// Pure and browser-safe.
import type { CustomRepeat, RepeatEnd, RepeatType } from '@/lib/event-rules/repeat';
import { eventProblems, remindersFit, startsInPast, titleFits } from '@/lib/event-rules/checks';
import { DEFAULT_NOTIFICATIONS, durationMinutes, isDuration, type Duration, type TimeType } from '@/lib/event-rules/limits';
import { addDays, dateIn, instantOf, minutesIn, roundUpToFive } from '@/lib/time/zoned';

export const WIZARD_STEPS = 5;
export type Step = 0 | 1 | 2 | 3 | 4;

export interface DraftNotification {
  type: 'email';
  time: number;
  timeType: TimeType;
}

export interface DraftAttendee {
  email: string;
  name?: string;
}

export interface Draft {
  title: string;
  description: string;
  /** The start's calendar day and minutes after midnight in `timezone`. */
  date: string;
  time: number;
  duration: Duration;
  timezone: string;
  roomId: string | null;
  passwordMode: 'none' | 'custom' | 'generated';
  /**
   * A new password: typed (custom) or made in the browser when "generated" is chosen, so it can be
   * read and copied on the step. Empty keeps the room's.
   */
  password: string;
  /**
   * When the room already has a password: keep it for this meeting too (the default), or change
   * it for everyone (issue 33). A meeting's password is its room's (docs/decisions.md).
   */
  roomPassword?: 'keep' | 'change';
  attendees: DraftAttendee[];
  groups: string[];
  showAttendees: boolean;
  repeatType: RepeatType;
  repeatCustom: CustomRepeat | null;
  /** How a plain (not custom) series ends (issue 33); a custom rule has its own end. */
  repeatEnd?: RepeatEnd;
  notifications: DraftNotification[];
}

/** How far ahead a new meeting starts by default: its 15-minute reminder must fit before it. */
const DEFAULT_LEAD_MINUTES = 30;

/**
 * A new meeting: on `date` at 09:00 when that is still ahead, else 30 minutes from now rounded up
 * to the next 5 (SPEC point 5), in the user's zone and default room, reminded 15 minutes before.
 */
export function newDraft(options: { now: number; timezone: string; roomId: string | null; date?: string }): Draft {
  const { now, timezone } = options;
  const soon = now + DEFAULT_LEAD_MINUTES * 60_000;
  let date = dateIn(soon, timezone);
  let time = roundUpToFive(minutesIn(soon, timezone));
  if (time >= 24 * 60) {
    date = addDays(date, 1);
    time = 0;
  }
  if (options.date && instantOf(options.date, 9 * 60, timezone) > soon) {
    date = options.date;
    time = 9 * 60;
  }
  return {
    title: '',
    description: '',
    date,
    time,
    duration: '0:30',
    timezone,
    roomId: options.roomId,
    passwordMode: 'none',
    password: '',
    roomPassword: 'keep',
    attendees: [],
    groups: [],
    showAttendees: false,
    repeatType: 'none',
    repeatCustom: null,
    repeatEnd: { type: 'never' },
    notifications: DEFAULT_NOTIFICATIONS.map((n) => ({ ...n })),
  };
}

/** The start of the draft as unix seconds. */
export function draftStart(draft: Pick<Draft, 'date' | 'time' | 'timezone'>): number {
  return Math.floor(instantOf(draft.date, draft.time, draft.timezone) / 1000);
}

/**
 * The body of POST /api/event and /api/event/update. The password is never in it: a new one
 * comes as `password` fields made by passwordChange() (room-password-store.ts), a proof and salt.
 */
export function draftBody(draft: Draft, password: { passwordProof?: string; passwordSalt?: string } = {}) {
  return {
    title: draft.title.trim(),
    description: draft.description.trim(),
    from: draftStart(draft),
    duration: draft.duration,
    timezone: draft.timezone,
    roomId: draft.roomId,
    passwordMode: draft.passwordMode,
    ...password,
    attendees: draft.attendees,
    groups: draft.groups,
    showAttendees: draft.showAttendees,
    repeatType: draft.repeatType,
    repeatCustom: draft.repeatType === 'custom' ? draft.repeatCustom : null,
    repeatEnd: draft.repeatType === 'custom' || draft.repeatType === 'none' ? null : (draft.repeatEnd ?? { type: 'never' }),
    notifications: draft.notifications,
  };
}

/** What saving sends about the password: the mode, and a new room password ('' keeps the room's). */
export interface PasswordPlan {
  passwordMode: Draft['passwordMode'];
  password: string;
  /** The room's password changes for everyone (or a room without one gets one). */
  changesRoom: boolean;
}

/**
 * The password the wizard's choices amount to. In a room that has a password, "keep" sends no
 * new one: as "custom" (which keeps the room's), or as "generated" when the edited meeting was
 * generated already (the server keeps that one too), never as a new "generated" that the server
 * would replace the room's password with.
 */
export function passwordPlan(
  draft: Pick<Draft, 'passwordMode' | 'password' | 'roomPassword'>,
  context: { roomHasPassword: boolean; editingGenerated?: boolean },
): PasswordPlan {
  if (draft.passwordMode === 'none') return { passwordMode: 'none', password: '', changesRoom: false };
  if (context.roomHasPassword && draft.roomPassword !== 'change') {
    const keepGenerated = draft.passwordMode === 'generated' && context.editingGenerated === true;
    return { passwordMode: keepGenerated ? 'generated' : 'custom', password: '', changesRoom: false };
  }
  return { passwordMode: draft.passwordMode, password: draft.password, changesRoom: draft.password !== '' };
}

/** A field of the draft and the error code it has, as the server would name them. */
export type DraftErrors = Partial<Record<keyof Draft, string>>;

/** Which step edits a field the server complained about. */
export const STEP_OF_FIELD: Record<string, Step> = {
  title: 0,
  description: 0,
  from: 0,
  date: 0,
  time: 0,
  duration: 0,
  timezone: 0,
  roomId: 1,
  passwordMode: 1,
  password: 1,
  attendees: 2,
  groups: 2,
  showAttendees: 2,
  repeatType: 3,
  repeatCustom: 3,
  repeatEnd: 3,
  notifications: 3,
};

/**
 * The mistakes of one step (SPEC point 5), by the server's own checks (lib/event-rules/checks.ts)
 * and codes of SPEC point 8: a name of at least 5 characters (an empty one becomes "(No Title)"),
 * no start in the past, a custom password of 8 or more, no own or duplicate attendee, no duplicate
 * reminder, without repeat only reminders that fit before the start, a custom repeat with its rule.
 */
export function stepErrors(
  step: Step,
  draft: Draft,
  /** roomHasPassword: the chosen room's password, which an empty custom field keeps. */
  context: { now: number; ownEmail: string; roomHasPassword: boolean },
): DraftErrors {
  const errors: DraftErrors = {};
  const start = draftStart(draft) * 1000;
  if (step === 0) {
    if (!titleFits(draft.title)) errors.title = 'room_title_length';
    if (startsInPast(start, context.now)) errors.time = 'error_is_past_event';
    if (!isDuration(draft.duration)) errors.duration = 'incorrect_data';
  }
  if (step === 2 && draft.attendees.some((a) => a.email.toLowerCase() === context.ownEmail.toLowerCase())) errors.attendees = 'incorrect_email';
  const changing = !context.roomHasPassword || draft.roomPassword === 'change';
  const checked = changing ? draft : { ...draft, password: '' };
  for (const { field, code } of eventProblems(checked, { passwordRequired: changing })) {
    if (STEP_OF_FIELD[field] === step) errors[field] ??= code;
  }
  // A generated password is made on the step; a new one is needed when the room's changes.
  if (step === 1 && changing && draft.passwordMode === 'generated' && !draft.password) errors.password ??= 'room_password_length';
  if (step === 3 && repeatEndProblem(draft)) errors.repeatEnd = 'incorrect_data';
  if (step === 3 && draft.repeatType === 'none' && !remindersFit(start, draft.notifications, context.now)) errors.notifications ??= 'notification_not_added';
  return errors;
}

/** A plain series' end on a day before its start, or a count that is not a whole number from 1 to 100,000. */
export function repeatEndProblem(draft: Pick<Draft, 'repeatType' | 'repeatEnd' | 'date'>): boolean {
  const end = draft.repeatEnd;
  if (draft.repeatType === 'none' || draft.repeatType === 'custom' || !end) return false;
  if (end.type === 'until') return !/^\d{4}-\d{2}-\d{2}$/.test(end.date) || end.date < draft.date;
  if (end.type === 'count') return !Number.isInteger(end.count) || end.count < 1 || end.count > 100_000;
  return false;
}

/** The end of the meeting as unix seconds. */
export function draftEnd(draft: Draft): number {
  return draftStart(draft) + durationMinutes(draft.duration) * 60;
}

/** What GET /api/event/{id} answers, as far as the wizard needs it. */
export interface EditedEvent {
  id: string;
  title: string;
  description: string | null;
  from: number;
  duration: string;
  timezone: string;
  roomId: string | null;
  passwordMode: 'none' | 'custom' | 'generated';
  hasPassword: boolean;
  attendees: { email: string; name: string | null; role: string }[];
  groups: string[];
  showAttendees: boolean;
  repeatType: string;
  repeatCustom: unknown;
  /** The stored series read back (lib/recurrence/describe.ts): its end, for the plain types. */
  repeatEnd?: RepeatEnd | null;
  notifications: { type: string; time: number; timeType: string }[];
  occurrence?: { id: string; title: string; description: string | null; from: number; duration: string };
}

/** The draft of a meeting being edited: the occurrence's own time and title when one is named. */
export function draftOf(event: EditedEvent): Draft {
  const source = event.occurrence ?? event;
  const startMs = source.from * 1000;
  // A custom length (issue 48) is kept as it is; only a malformed one falls back to 30 minutes.
  const duration: Duration = isDuration(source.duration) ? source.duration : '0:30';
  return {
    title: source.title,
    description: source.description ?? '',
    date: dateIn(startMs, event.timezone),
    time: minutesIn(startMs, event.timezone),
    duration,
    timezone: event.timezone,
    roomId: event.roomId,
    passwordMode: event.passwordMode,
    password: '',
    roomPassword: 'keep',
    attendees: event.attendees.filter((a) => a.role !== 'organizer').map((a) => ({ email: a.email, ...(a.name ? { name: a.name } : {}) })),
    groups: event.groups,
    showAttendees: event.showAttendees,
    repeatType: event.repeatType as RepeatType,
    repeatCustom: (event.repeatCustom as CustomRepeat | null) ?? null,
    repeatEnd: event.repeatEnd ?? { type: 'never' },
    notifications: event.notifications.map((n) => ({ type: 'email', time: n.time, timeType: n.timeType as TimeType })),
  };
}
