// The address book: attendees and their groups.
import { sql } from 'drizzle-orm';
import { pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { colorCheck, colorColumn, createdAt } from './columns';
import { users } from './accounts';

export const attendees = pgTable(
  'attendees',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phoneNumber: text('phone_number'),
    countryCode: text('country_code'),
    dialCode: text('dial_code'),
    color: colorColumn(),
    lang: text('lang').notNull().default('en'),
    timezone: text('timezone'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('attendees_owner_email_key').on(t.ownerId, sql`lower(${t.email})`), colorCheck('attendees_color_range', t.color)],
);

export const groups = pgTable(
  'groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: colorColumn(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('groups_owner_name_key').on(t.ownerId, sql`lower(${t.name})`), colorCheck('groups_color_range', t.color)],
);

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    attendeeId: uuid('attendee_id')
      .notNull()
      .references(() => attendees.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.attendeeId] })],
);

export type Attendee = typeof attendees.$inferSelect;
export type Group = typeof groups.$inferSelect;
