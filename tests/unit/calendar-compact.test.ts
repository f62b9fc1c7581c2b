// The browser's expansion of the compact calendar answer (lib/calendar/compact.ts), and the
// byte-bounded LRU that keeps expansions on the server (lib/cache/byte-lru.ts).
import { expandCompact, isCompactCalendar, sortOccurrences, type CompactCalendar } from '@/lib/calendar/compact';
import { ByteLru } from '@/lib/cache/byte-lru';

const SERIES = '11111111-1111-4111-8111-111111111111';
const SINGLE = '22222222-2222-4222-8222-222222222222';
const ROOM = '33333333-3333-4333-8333-333333333333';
const T = 1_900_000_000; // a Monday far ahead, unix s

const answer: CompactCalendar = {
  form: 'compact',
  start: T - 86_400,
  end: T + 7 * 86_400,
  rooms: { [ROOM]: { name: 'Main room', color: 4 } },
  series: [
    {
      eventId: SERIES,
      repeat: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
      repeatType: 'daily',
      recurring: true,
      title: 'Standup',
      description: 'Yesterday, today, blockers',
      timezone: 'Europe/Berlin',
      roomId: ROOM,
      link: 'https://example.test/now/abc',
      minutes: 15,
      starts: [T, T + 86_400, T + 3 * 86_400],
      changed: [
        // The third day's meeting moved an hour later and lengthened; keeps title and description.
        { occurrence: T + 2 * 86_400, from: T + 2 * 86_400 + 3600, to: T + 2 * 86_400 + 3600 + 3600 },
        // The fifth retitled, with notes of its own.
        { occurrence: T + 4 * 86_400, from: T + 4 * 86_400, to: T + 4 * 86_400 + 900, title: 'Standup (demo)', description: '' },
      ],
    },
    {
      eventId: SINGLE,
      repeat: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
      repeatType: 'none',
      recurring: false,
      title: 'Alpha review',
      description: null,
      timezone: 'America/New_York',
      roomId: null,
      link: null,
      minutes: 120,
      starts: [T + 86_400],
    },
  ],
};

describe('expandCompact', () => {
  const list = expandCompact(answer, (T + 86_400) * 1000 + 1);

  it('gives every occurrence the full form’s fields, by start then title', () => {
    expect(list.map((o) => [o.id, o.from, o.title])).toEqual([
      [`${SERIES}_${T}`, T, 'Standup'],
      [SINGLE, T + 86_400, 'Alpha review'],
      [`${SERIES}_${T + 86_400}`, T + 86_400, 'Standup'],
      [`${SERIES}_${T + 2 * 86_400}`, T + 2 * 86_400 + 3600, 'Standup'],
      [`${SERIES}_${T + 3 * 86_400}`, T + 3 * 86_400, 'Standup'],
      [`${SERIES}_${T + 4 * 86_400}`, T + 4 * 86_400, 'Standup (demo)'],
    ]);
    expect(list[0]).toEqual({
      id: `${SERIES}_${T}`,
      eventId: SERIES,
      repeat: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
      repeatType: 'daily',
      occurrence: T,
      title: 'Standup',
      description: 'Yesterday, today, blockers',
      from: T,
      to: T + 900,
      duration: '0:15',
      timezone: 'Europe/Berlin',
      room: { id: ROOM, name: 'Main room', color: 4 },
      link: 'https://example.test/now/abc',
      isException: false,
      isPast: true,
    });
  });

  it('a single meeting has its own id and no room; a changed occurrence keeps what it does not override', () => {
    expect(list[1]).toMatchObject({
      id: SINGLE,
      occurrence: T + 86_400,
      to: T + 86_400 + 7200,
      duration: '2:00',
      room: null,
      link: null,
      description: null,
      isException: false,
    });
    expect(list[3]).toMatchObject({
      occurrence: T + 2 * 86_400,
      duration: '1:00',
      title: 'Standup',
      description: 'Yesterday, today, blockers',
      isException: true,
    });
    expect(list[5]).toMatchObject({ title: 'Standup (demo)', description: '', duration: '0:15', isException: true });
  });

  it('isPast: started before now (SPEC point 4), in the browser’s clock', () => {
    expect(list.map((o) => o.isPast)).toEqual([true, true, true, false, false, false]);
    expect(expandCompact(answer, 0).some((o) => o.isPast)).toBe(false);
  });

  it('a room the answer does not list is no room; an empty answer is no meetings', () => {
    const orphan = { ...answer, rooms: {} };
    expect(expandCompact(orphan).every((o) => o.room === null)).toBe(true);
    expect(expandCompact({ ...answer, series: [] })).toEqual([]);
  });

  it('recognises the compact answer, and not the full form or an error', () => {
    expect(isCompactCalendar(answer)).toBe(true);
    expect(isCompactCalendar([])).toBe(false);
    expect(isCompactCalendar(null)).toBe(false);
    expect(isCompactCalendar({ status: 'error', errorCode: 'incorrect_data' })).toBe(false);
  });

  it('sorts ties by title with the collator, whatever their order', () => {
    const items = [
      { from: 2, title: 'b' },
      { from: 1, title: 'Zed' },
      { from: 2, title: 'A' },
      { from: 1, title: 'alpha' },
    ];
    expect(sortOccurrences(items).map((i) => `${i.from}${i.title}`)).toEqual(['1alpha', '1Zed', '2A', '2b']);
  });
});

describe('ByteLru', () => {
  it('drops the least recently used until the bytes fit; a read counts as a use', () => {
    const lru = new ByteLru<string>(100);
    lru.set('a', 'A', 40);
    lru.set('b', 'B', 40);
    expect(lru.get('a')).toBe('A');
    lru.set('c', 'C', 40);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual(['A', undefined, 'C']);
    expect([lru.size, lru.bytes]).toEqual([2, 80]);
  });

  it('replacing a key counts its new size; a value larger than the cache is not kept', () => {
    const lru = new ByteLru<number>(100);
    lru.set('a', 1, 30);
    lru.set('a', 2, 60);
    expect([lru.get('a'), lru.bytes]).toEqual([2, 60]);
    lru.set('huge', 3, 101);
    expect([lru.get('huge'), lru.get('a'), lru.bytes]).toEqual([undefined, 2, 60]);
    lru.set('b', 4, 50);
    expect([lru.get('a'), lru.get('b'), lru.bytes]).toEqual([undefined, 4, 50]);
    lru.delete('b');
    lru.clear();
    expect([lru.size, lru.bytes]).toEqual([0, 0]);
  });
});
