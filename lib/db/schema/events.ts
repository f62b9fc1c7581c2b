// Meetings in the calendar: events, their series' exceptions, attendees, groups, notifications,
// reminders, feeds and the per-user calendar version.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './accounts';
import { attendees, groups } from './contacts';
import { rooms } from './rooms';

/** A single meeting or the master of a recurring series (wall-clock time in `timezone`). */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roomId: uuid('room_id').references(() => rooms.id, { onDelete: 'restrict' }),
    title: text('title').notNull().default('(No Title)'),
    description: text('description'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    timezone: text('timezone').notNull(),
    // The uid shared by every occurrence of a series (SPEC point 3 "repeat").
    repeat: uuid('repeat').notNull().defaultRandom(),
    repeatType: text('repeat_type', {
      enum: ['none', 'daily', 'weekly', 'monthly', 'annually', 'weekdays', 'custom'],
    })
      .notNull()
      .default('none'),
    // The RRULE line of RFC 5545 without DTSTART (which is startsAt, wall-clock in `timezone`);
    // an UNTIL in it is a UTC instant, as RFC 5545 requires beside a DTSTART with TZID.
    rrule: text('rrule'),
    // Custom repeat settings as the wizard's repeating picker sent them (to edit them again).
    repeatCustom: jsonb('repeat_custom').$type<Record<string, unknown>>(),
    // When the last occurrence ends; null while the series repeats without end. Lets a calendar
    // window skip series that are over without expanding them.
    endsAt: timestamp('ends_at', { withTimezone: true }),
    showAttendees: boolean('show_attendees').notNull().default(false),
    passwordMode: text('password_mode', { enum: ['none', 'custom', 'generated'] })
      .notNull()
      .default('none'),
    link: text('link'),
    // ICS SEQUENCE, raised on every change sent to attendees.
    sequence: integer('sequence').notNull().default(0),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('events_owner_start_idx').on(t.ownerId, t.startsAt),
    index('events_repeat_idx').on(t.repeat),
    index('events_owner_ends_idx').on(t.ownerId, t.endsAt),
  ],
);

/** A change to, or the cancellation of, one occurrence of a series (RECURRENCE-ID / EXDATE). */
export const eventExceptions = pgTable(
  'event_exceptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    originalStart: timestamp('original_start', { withTimezone: true }).notNull(),
    cancelled: boolean('cancelled').notNull().default(false),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    durationMinutes: integer('duration_minutes'),
    title: text('title'),
    description: text('description'),
    sequence: integer('sequence').notNull().default(0),
  },
  (t) => [uniqueIndex('event_exceptions_occurrence_key').on(t.eventId, t.originalStart)],
);

/**
 * How often each user's calendar changed (issue 17): triggers on events, event_exceptions and
 * rooms raise it in the writing transaction (drizzle/0008_calendar_versions.sql), whatever wrote
 * them, so the calendar's ETag costs one row's read instead of a scan of the user's rows.
 */
export const calendarVersions = pgTable('calendar_versions', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

export const eventAttendees = pgTable(
  'event_attendees',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name'),
    attendeeId: uuid('attendee_id').references(() => attendees.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    role: text('role', { enum: ['organizer', 'attendee'] })
      .notNull()
      .default('attendee'),
  },
  (t) => [uniqueIndex('event_attendees_email_key').on(t.eventId, sql`lower(${t.email})`)],
);

export const eventGroups = pgTable(
  'event_groups',
  {
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.groupId] })],
);

export const eventNotifications = pgTable(
  'event_notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['email'] })
      .notNull()
      .default('email'),
    time: integer('time').notNull(),
    timeType: text('time_type', { enum: ['minutes', 'hour', 'day'] }).notNull(),
  },
  (t) => [uniqueIndex('event_notifications_period_key').on(t.eventId, t.type, t.time, t.timeType)],
);

/**
 * The reminder outbox: one row per (occurrence, recipient, kind), written in the same transaction
 * as the event change that plans it, claimed by the worker with FOR UPDATE SKIP LOCKED. Rows that
 * are not sent yet are deleted and planned again when the event moves, and go with it when it is
 * cancelled. Sent rows stay, so that the unique key suppresses a second reminder.
 */
export const eventReminders = pgTable(
  'event_reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    // The occurrence: its original start (RECURRENCE-ID) and where it actually starts.
    occurrenceStart: timestamp('occurrence_start', { withTimezone: true }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    email: text('email').notNull(),
    locale: text('locale').notNull().default('en'),
    // e.g. 'email:15:minutes'
    kind: text('kind').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'skipped'] })
      .notNull()
      .default('pending'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('event_reminders_idempotency_key').on(t.idempotencyKey),
    index('event_reminders_due_idx').on(t.status, t.dueAt),
    index('event_reminders_event_idx').on(t.eventId),
  ],
);

/** A user's private ICS feed: only the token's hash is kept; a new token revokes the old one. */
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: createdAt(),
});

export type Event = typeof events.$inferSelect;
export type EventException = typeof eventExceptions.$inferSelect;
export type EventReminder = typeof eventReminders.$inferSelect;
