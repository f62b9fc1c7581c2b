// Copies of database reads kept in memory until a row they came from changes (issue 17): on the
// embedded database, the session's user row and the calendar's version were two of the three
// milliseconds of CPU a revalidated calendar request cost. Only where the database has a change
// feed (lib/db/change-feed.ts); elsewhere every read goes to the database, as before.
import { changeFeedOf, type ChangeFeed, type RowChange } from './change-feed';

/** A read by key, from a copy or from the database. */
export interface Reads<V> {
  /**
   * The value for `key`: a kept copy, else `load()`'s answer, kept as long as none of `rows`
   * (named as the feed names them: 'users:<id>') changes.
   */
  read(key: string, rows: readonly string[], load: () => Promise<V>): Promise<V>;
}

const direct: Reads<never> = { read: (_key, _rows, load) => load() };

export class CommittedCopies<V> implements Reads<V> {
  private readonly copies = new Map<string, { value: V; rows: readonly string[] }>();
  private readonly keysOfRow = new Map<string, Set<string>>();

  constructor(
    private readonly feed: ChangeFeed,
    private readonly maxEntries: number,
  ) {
    feed.subscribe((change) => this.forgetChanged(change));
  }

  get size(): number {
    return this.copies.size;
  }

  async read(key: string, rows: readonly string[], load: () => Promise<V>): Promise<V> {
    const copy = this.copies.get(key);
    if (copy) {
      // The most recently used goes last: the first in the map is the next to go.
      this.copies.delete(key);
      this.copies.set(key, copy);
      return copy.value;
    }
    const before = this.feed.generation;
    const value = await load();
    // A change heard while the read ran may have committed after it: the copy could be stale.
    if (this.feed.generation === before) this.keep(key, rows, value);
    return value;
  }

  private keep(key: string, rows: readonly string[], value: V) {
    this.copies.set(key, { value, rows });
    for (const row of rows) {
      let keys = this.keysOfRow.get(row);
      if (!keys) this.keysOfRow.set(row, (keys = new Set()));
      keys.add(key);
    }
    if (this.copies.size > this.maxEntries) this.forget(this.copies.keys().next().value!);
  }

  private forget(key: string) {
    const copy = this.copies.get(key);
    if (!copy) return;
    this.copies.delete(key);
    for (const row of copy.rows) {
      const keys = this.keysOfRow.get(row);
      keys?.delete(key);
      if (keys?.size === 0) this.keysOfRow.delete(row);
    }
  }

  private forgetChanged({ table, key }: RowChange) {
    if (key === '*') {
      // A TRUNCATE (or a payload not understood): rare enough to drop every copy.
      this.copies.clear();
      this.keysOfRow.clear();
      return;
    }
    for (const copyKey of [...(this.keysOfRow.get(`${table}:${key}`) ?? [])]) this.forget(copyKey);
  }
}

/**
 * One store of copies per database, for a module-level `const reads = copiesPerDatabase(…)`:
 * `reads(db).read(…)` keeps copies when `db` has a change feed and reads through otherwise.
 */
export function copiesPerDatabase<V>(maxEntries: number): (db: object) => Reads<V> {
  const stores = new WeakMap<object, Reads<V>>();
  return (db) => {
    let store = stores.get(db);
    if (!store) {
      const feed = changeFeedOf(db);
      store = feed ? new CommittedCopies<V>(feed, maxEntries) : direct;
      stores.set(db, store);
    }
    return store;
  };
}
