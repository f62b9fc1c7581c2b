import { DateTime } from 'luxon';
import { isErrorCode } from '@/lib/errors';
import { eventSchema } from '@/lib/events/schemas';
import { draftBody, draftOf, draftStart, newDraft, passwordPlan, stepErrors, type Draft } from '@/lib/schedule/draft';

const zone = 'Europe/Berlin';
const now = DateTime.fromISO('2026-11-23T11:52:10', { zone }).toMillis();
const context = { now, ownEmail: 'me@example.test', roomHasPassword: false };
const base = (patch: Partial<Draft> = {}): Draft => ({ ...newDraft({ now, timezone: zone, roomId: 'room-1' }), ...patch });

describe('the schedule draft (lib/schedule/draft)', () => {
  it('starts 30 minutes ahead rounded up to 5, in the user zone, reminded 15 minutes before', () => {
    const draft = newDraft({ now, timezone: zone, roomId: 'room-1' });
    expect([draft.date, draft.time]).toEqual(['2026-11-23', 12 * 60 + 25]);
    expect(draft.notifications).toEqual([{ type: 'email', time: 15, timeType: 'minutes' }]);
    expect(draft).toMatchObject({ duration: '0:30', repeatType: 'none', passwordMode: 'none', roomId: 'room-1', timezone: zone });
  });

  it('takes 09:00 on a day the calendar names, unless that has passed; late at night it rolls to tomorrow', () => {
    expect(newDraft({ now, timezone: zone, roomId: null, date: '2026-12-01' })).toMatchObject({ date: '2026-12-01', time: 540 });
    expect(newDraft({ now, timezone: zone, roomId: null, date: '2026-11-23' })).toMatchObject({ date: '2026-11-23', time: 745 });
    const late = DateTime.fromISO('2026-11-23T23:40', { zone }).toMillis();
    expect(newDraft({ now: late, timezone: zone, roomId: null })).toMatchObject({ date: '2026-11-24', time: 10 });
  });

  it('turns the wall clock into the start instant of the meeting’s own zone', () => {
    const draft = base({ date: '2027-03-28', time: 9 * 60, timezone: 'America/New_York' });
    expect(draftStart(draft)).toBe(DateTime.fromISO('2027-03-28T09:00', { zone: 'America/New_York' }).toSeconds());
  });

  it('checks each step with the server’s rules and error codes (SPEC point 5)', () => {
    expect(stepErrors(0, base({ title: 'Hey' }), context)).toEqual({ title: 'room_title_length' });
    expect(stepErrors(0, base({ title: '' }), context)).toEqual({});
    expect(stepErrors(0, base({ title: 'Standup', time: 11 * 60 + 50 }), context)).toEqual({ time: 'error_is_past_event' });
    expect(stepErrors(1, base({ passwordMode: 'custom', password: 'short' }), context)).toEqual({ password: 'room_password_length' });
    expect(stepErrors(1, base({ passwordMode: 'custom', password: '' }), { ...context, roomHasPassword: true })).toEqual({});
    expect(stepErrors(2, base({ attendees: [{ email: 'ME@example.test' }] }), context)).toEqual({ attendees: 'incorrect_email' });
    expect(stepErrors(2, base({ attendees: [{ email: 'a@x.test' }, { email: 'A@x.test' }] }), context)).toEqual({ attendees: 'contact_exists' });
    const twice = [
      { type: 'email' as const, time: 1, timeType: 'hour' as const },
      { type: 'email' as const, time: 1, timeType: 'hour' as const },
    ];
    expect(stepErrors(3, base({ notifications: twice }), context)).toEqual({ notifications: 'notification_not_added' });
    // Starts in 33 minutes: a reminder 1 hour before would be in the past, unless the meeting repeats.
    const soon = base({ notifications: [{ type: 'email', time: 1, timeType: 'hour' }] });
    // The server's code for it (lib/events/event-values.ts); StepRepeat explains it as "too late".
    expect(stepErrors(3, soon, context)).toEqual({ notifications: 'notification_not_added' });
    expect(stepErrors(3, { ...soon, repeatType: 'daily' }, context)).toEqual({});
    expect(stepErrors(3, base({ repeatType: 'custom', repeatCustom: null }), context)).toEqual({ repeatCustom: 'missing_data' });
  });

  it("changes a room's password only when the person chose to change it for everyone (issue 33)", () => {
    const protectedRoom = { roomHasPassword: true };
    // A new meeting starts on "keep".
    expect(base().roomPassword).toBe('keep');
    // Keep: whatever the mode, nothing new is sent, and never as a new "generated" (the server would make one).
    for (const passwordMode of ['custom', 'generated'] as const) {
      expect(passwordPlan(base({ passwordMode, password: 'Abcdefgh23456789' }), protectedRoom)).toEqual({
        passwordMode: 'custom',
        password: '',
        changesRoom: false,
      });
    }
    // An edited meeting whose password was generated keeps it, as "generated".
    expect(passwordPlan(base({ passwordMode: 'generated' }), { ...protectedRoom, editingGenerated: true })).toEqual({
      passwordMode: 'generated',
      password: '',
      changesRoom: false,
    });
    // Change: the new password goes.
    expect(passwordPlan(base({ passwordMode: 'generated', password: 'Abcdefgh23456789', roomPassword: 'change' }), protectedRoom)).toEqual({
      passwordMode: 'generated',
      password: 'Abcdefgh23456789',
      changesRoom: true,
    });
    // A room without a password gets the new one; "none" never sends one.
    expect(passwordPlan(base({ passwordMode: 'custom', password: 'long enough' }), { roomHasPassword: false })).toMatchObject({
      password: 'long enough',
      changesRoom: true,
    });
    expect(passwordPlan(base({ passwordMode: 'none', password: 'stale', roomPassword: 'change' }), protectedRoom)).toEqual({
      passwordMode: 'none',
      password: '',
      changesRoom: false,
    });
    // The step asks for a new password only when it changes the room's.
    expect(stepErrors(1, base({ passwordMode: 'custom', password: '', roomPassword: 'change' }), { ...context, roomHasPassword: true })).toEqual({
      password: 'room_password_length',
    });
    expect(stepErrors(1, base({ passwordMode: 'custom', password: 'short', roomPassword: 'keep' }), { ...context, roomHasPassword: true })).toEqual({});
    expect(stepErrors(1, base({ passwordMode: 'generated', password: '' }), context)).toEqual({ password: 'room_password_length' });
    expect(stepErrors(1, base({ passwordMode: 'generated', password: 'Abcdefgh23456789' }), context)).toEqual({});
  });

  it('answers only codes of the catalogue (SPEC point 8)', () => {
    const drafts = [
      base({ title: 'Hey', time: 0, passwordMode: 'custom', password: 'x', attendees: [{ email: 'me@example.test' }, { email: 'me@example.test' }] }),
      base({ notifications: [{ type: 'email', time: 1, timeType: 'day' }], repeatType: 'custom', repeatCustom: null }),
    ];
    for (const draft of drafts) {
      for (const step of [0, 1, 2, 3, 4] as const) {
        for (const code of Object.values(stepErrors(step, draft, context))) expect([step, code, isErrorCode(code)]).toEqual([step, code, true]);
      }
    }
  });

  it('makes a body the API schema accepts, without a password unless a new custom one is typed', () => {
    const draft = base({
      title: 'Planning',
      attendees: [{ email: 'guest@example.test' }],
      repeatType: 'custom',
      repeatCustom: { freq: 'weekly', interval: 2, weekdays: ['MO', 'WE'], end: { type: 'count', count: 6 } },
    });
    const body = draftBody(draft);
    expect(body).not.toHaveProperty('password');
    const parsed = eventSchema.safeParse(body);
    expect(parsed.success).toBe(true);
    // The password itself never goes into the request, only the proof fields made from it.
    expect(draftBody({ ...draft, passwordMode: 'custom', password: 'long enough' })).not.toHaveProperty('password');
    expect(draftBody({ ...draft, passwordMode: 'custom', password: 'long enough' }, { passwordProof: 'p', passwordSalt: 's' })).toMatchObject({
      passwordProof: 'p',
      passwordSalt: 's',
    });
    expect(draftBody({ ...draft, repeatType: 'weekly' }).repeatCustom).toBeNull();
  });

  it('edits an occurrence at its own time and title, and never lists the organizer as an attendee', () => {
    const from = DateTime.fromISO('2026-12-07T10:05', { zone }).toSeconds();
    const draft = draftOf({
      id: 'e1',
      title: 'Weekly sync',
      description: null,
      from,
      duration: '1:00',
      timezone: zone,
      roomId: 'room-1',
      passwordMode: 'generated',
      hasPassword: true,
      attendees: [
        { email: 'me@example.test', name: 'Me', role: 'organizer' },
        { email: 'guest@example.test', name: null, role: 'attendee' },
      ],
      groups: [],
      showAttendees: true,
      repeatType: 'weekly',
      repeatCustom: null,
      notifications: [{ type: 'email', time: 1, timeType: 'day' }],
      occurrence: { id: 'e1_1', title: 'Weekly sync (moved)', description: 'Room 2', from: from + 7 * 86400 + 3600, duration: '1:00' },
    });
    expect(draft).toMatchObject({
      title: 'Weekly sync (moved)',
      description: 'Room 2',
      date: '2026-12-14',
      time: 11 * 60 + 5,
      attendees: [{ email: 'guest@example.test' }],
      passwordMode: 'generated',
      password: '',
      notifications: [{ type: 'email', time: 1, timeType: 'day' }],
    });
  });
});
