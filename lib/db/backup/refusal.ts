/** A backup or restore that must not go ahead; its message says what to do instead (exit 1). */
export class BackupRefusal extends Error {}

/** How much a backup or restore moved, for its closing line. */
export interface Contents {
  accounts: number;
  rooms: number;
  meetings: number;
  /** Rows in drizzle.__drizzle_migrations: the migrations the database has. */
  migrations: number;
}

export const CONTENTS_SQL = `select
  (select count(*) from users)::int as accounts,
  (select count(*) from rooms)::int as rooms,
  (select count(*) from events)::int as meetings,
  (select count(*) from drizzle.__drizzle_migrations)::int as migrations`;

export const describeContents = (c: Contents) => `${c.accounts} account(s), ${c.rooms} room(s), ${c.meetings} meeting(s), ${c.migrations} migration(s) applied`;
