// The embedded database's row changes, as they commit (issue 17, drizzle/0009_change_notifications.sql).
// PGlite runs inside this process and no other process opens its folder, so every write passes
// through it, and PGlite hands a commit's notifications to their listener before the committing
// statement returns. Copies of rows kept in memory (lib/db/committed-copies.ts) are dropped here
// the moment their row changes, so a request never reads a copy older than the last commit it
// could have seen. PostgreSQL has no feed: other instances write to it too, and a LISTEN
// connection hears their commits only some time later.

/** One changed row, as the triggers name it: its table and key, or the key '*' for every row. */
export interface RowChange {
  table: string;
  key: string;
}

/** The channel the triggers notify on; the setting that turns them on for a connection. */
export const CHANGES_CHANNEL = 'enclave_changes';
export const NOTIFY_CHANGES_SETTING = 'enclave.notify_changes';

export class ChangeFeed {
  private changes = 0;
  private readonly listeners = new Set<(change: RowChange) => void>();

  /**
   * How many changes were heard so far. A copy read from the database while this stayed the same
   * is current; if it moved, a change may have committed after the read, and the copy is not kept.
   */
  get generation(): number {
    return this.changes;
  }

  /** Calls `listener` with every change from now on, for as long as the feed lives (its database). */
  subscribe(listener: (change: RowChange) => void): void {
    this.listeners.add(listener);
  }

  /** A notification's payload, 'table:key'. Anything else counts as every row of every table. */
  publish(payload: string): void {
    this.changes += 1;
    const at = payload.indexOf(':');
    const change = at > 0 ? { table: payload.slice(0, at), key: payload.slice(at + 1) } : { table: '*', key: '*' };
    for (const listener of this.listeners) listener(change);
  }
}

interface NotifyingClient {
  exec(query: string): Promise<unknown>;
  listen(channel: string, callback: (payload: string) => void): Promise<unknown>;
}

/**
 * Turns the triggers on for this (only) connection and feeds what they report into a new feed,
 * kept on `db` for changeFeedOf.
 */
export async function followChanges(client: NotifyingClient, db: object): Promise<ChangeFeed> {
  const feed = new ChangeFeed();
  await client.listen(CHANGES_CHANNEL, (payload) => feed.publish(payload));
  await client.exec(`SET ${NOTIFY_CHANGES_SETTING} = 'on'`);
  // On the database object itself, not in a module's map: every bundle that imports this module sees it.
  Object.defineProperty(db, FEED, { value: feed });
  return feed;
}

const FEED = Symbol.for('enclave.changeFeed');

/** The feed of a database opened with one (the embedded PGlite), else undefined. */
export function changeFeedOf(db: object): ChangeFeed | undefined {
  return (db as { [FEED]?: ChangeFeed })[FEED];
}
