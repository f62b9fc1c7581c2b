// Column helpers the tables of several domains share.
import { sql } from 'drizzle-orm';
import { check, customType, integer, timestamp } from 'drizzle-orm/pg-core';

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const colorColumn = () => integer('color').notNull().default(1);
export const colorCheck = (name: string, column: unknown) => check(name, sql`${column} between 1 and 20`);
/** Files kept in the database (avatars, ticket attachments), so that every app instance serves them. */
export const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
