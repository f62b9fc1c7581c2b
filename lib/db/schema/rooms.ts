// Meeting rooms.
import { sql } from 'drizzle-orm';
import { boolean, check, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { colorCheck, colorColumn, createdAt } from './columns';
import { users } from './accounts';

export const rooms = pgTable(
  'rooms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: colorColumn(),
    isDefault: boolean('is_default').notNull().default(false),
    adminName: text('admin_name'),
    adminEmail: text('admin_email'),
    // argon2id of the proof the browser derives from the password (lib/meeting/room-password.ts):
    // neither the password nor the key it adds to the call ever reaches the server.
    passwordHash: text('password_hash'),
    // Public, random per password: the browser's PBKDF2 salt. Set whenever passwordHash is.
    passwordSalt: text('password_salt'),
    // The stable public id in the meeting link {APP_URL}/now/{meetingId}.
    meetingId: text('meeting_id').notNull(),
    askToJoin: boolean('ask_to_join').notNull().default(false),
    // Issue 38, "Calls in this room": 'auto' (peer to peer, through the SFU from 6 participants),
    // or pinned to 'mesh' or 'sfu' by the host (lib/meeting/protocol.ts ROOM_MEDIA_ROUTES).
    mediaRoute: text('media_route', { enum: ['auto', 'mesh', 'sfu'] })
      .notNull()
      .default('auto'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('rooms_owner_name_key').on(t.ownerId, sql`lower(${t.name})`),
    uniqueIndex('rooms_meeting_id_key').on(t.meetingId),
    uniqueIndex('rooms_one_default_key')
      .on(t.ownerId)
      .where(sql`${t.isDefault}`),
    colorCheck('rooms_color_range', t.color),
    check('rooms_media_route_values', sql`${t.mediaRoute} in ('auto', 'mesh', 'sfu')`),
  ],
);

export type Room = typeof rooms.$inferSelect;
