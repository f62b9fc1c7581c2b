/** @jest-environment jsdom */
// Issue 48: a browser the host removed is told it cannot rejoin when it opens the link again,
// for as long as the server's ban lasts on Redis (a day), and only for that meeting.
import { markRemoved, REMOVAL_REMEMBERED_MS, wasRemoved } from '@/lib/meeting/client/call/removal-mark';

beforeEach(() => localStorage.clear());

describe('the removal mark', () => {
  it('holds for the meeting it was set for, and no other', () => {
    markRemoved('room-a', 1_000);
    expect(wasRemoved('room-a', 2_000)).toBe(true);
    expect(wasRemoved('room-b', 2_000)).toBe(false);
  });

  it('ends after a day, and is then forgotten', () => {
    markRemoved('room-a', 0);
    expect(wasRemoved('room-a', REMOVAL_REMEMBERED_MS - 1)).toBe(true);
    expect(wasRemoved('room-a', REMOVAL_REMEMBERED_MS)).toBe(false);
    expect(localStorage.length).toBe(0);
  });

  it('a browser that refuses storage neither throws nor keeps anyone out', () => {
    const setItem = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('quota');
    });
    expect(() => markRemoved('room-a')).not.toThrow();
    setItem.mockRestore();
    expect(wasRemoved('room-a')).toBe(false);
  });
});
