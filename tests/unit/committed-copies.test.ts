// Copies of database reads kept until their rows change (lib/db/committed-copies.ts): a copy is
// answered only while no change named one of its rows, a read that overlapped a change is not
// kept, and the store stays bounded.
import { ChangeFeed } from '@/lib/db/change-feed';
import { CommittedCopies, copiesPerDatabase } from '@/lib/db/committed-copies';

describe('CommittedCopies', () => {
  it('answers a kept copy until a change names one of its rows', async () => {
    const feed = new ChangeFeed();
    const copies = new CommittedCopies<string>(feed, 10);
    let stored = 'v1';
    const load = jest.fn(async () => stored);
    const rows = ['users:u1', 'revoked_sessions:s1'];
    expect(await copies.read('u1 s1', rows, load)).toBe('v1');
    stored = 'v2';
    expect(await copies.read('u1 s1', rows, load)).toBe('v1');
    expect(load).toHaveBeenCalledTimes(1);

    feed.publish('users:someone-else');
    feed.publish('revoked_sessions:s2');
    feed.publish('calendar_versions:u1');
    expect(await copies.read('u1 s1', rows, load)).toBe('v1');

    feed.publish('revoked_sessions:s1');
    expect(await copies.read('u1 s1', rows, load)).toBe('v2');
    stored = 'v3';
    feed.publish('users:u1');
    expect(await copies.read('u1 s1', rows, load)).toBe('v3');
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('does not keep what a read answered when a change was heard while it ran', async () => {
    const feed = new ChangeFeed();
    const copies = new CommittedCopies<string>(feed, 10);
    let stored = 'old';
    const overlapping = jest.fn(async () => {
      const seen = stored;
      // The write commits after the read saw its row, before the read returned.
      stored = 'new';
      feed.publish('users:u1');
      return seen;
    });
    expect(await copies.read('u1', ['users:u1'], overlapping)).toBe('old');
    expect(copies.size).toBe(0);
    expect(await copies.read('u1', ['users:u1'], async () => stored)).toBe('new');
    expect(copies.size).toBe(1);
  });

  it('a TRUNCATE (key *) or an unreadable payload drops every copy', async () => {
    const feed = new ChangeFeed();
    const copies = new CommittedCopies<number>(feed, 10);
    await copies.read('a', ['users:a'], async () => 1);
    await copies.read('b', ['users:b'], async () => 2);
    feed.publish('revoked_sessions:*');
    expect(copies.size).toBe(0);
    await copies.read('a', ['users:a'], async () => 1);
    feed.publish('nonsense');
    expect(copies.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping the least recently used and its row index', async () => {
    const feed = new ChangeFeed();
    const copies = new CommittedCopies<string>(feed, 2);
    const load = (value: string) => jest.fn(async () => value);
    await copies.read('a', ['users:a'], load('a'));
    await copies.read('b', ['users:b'], load('b'));
    await copies.read('a', ['users:a'], load('unused')); // a is now the most recent
    await copies.read('c', ['users:c'], load('c')); // b goes
    expect(copies.size).toBe(2);
    const again = load('b2');
    expect(await copies.read('b', ['users:b'], again)).toBe('b2');
    expect(again).toHaveBeenCalledTimes(1);
    // a went when b came back; a change to it finds nothing to drop and breaks nothing.
    feed.publish('users:a');
    expect(await copies.read('c', ['users:c'], load('unused'))).toBe('c');
  });

  it('a failed read keeps nothing and fails the caller', async () => {
    const feed = new ChangeFeed();
    const copies = new CommittedCopies<string>(feed, 10);
    await expect(copies.read('a', ['users:a'], async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(copies.size).toBe(0);
  });
});

describe('copiesPerDatabase', () => {
  it('reads through, keeping nothing, for a database without a change feed', async () => {
    const reads = copiesPerDatabase<number>(10);
    const database = {};
    let n = 0;
    const load = async () => (n += 1);
    expect(await reads(database).read('k', ['users:k'], load)).toBe(1);
    expect(await reads(database).read('k', ['users:k'], load)).toBe(2);
  });
});
