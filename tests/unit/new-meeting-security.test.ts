/** @jest-environment node */
import { initialSecurity, planSecurity } from '@/components/modals/new-meeting/security';
import { ROOM_PASSWORD_MIN } from '@/lib/rooms/schemas';

// The new-meeting modal's protection step as a table: the room, the option, the field, and what
// goes to the server (passwordChange: new password, null = remove, undefined = keep) and is shown.
const withPassword = { hasPassword: true };
const open = { hasPassword: false };
const good = 'p'.repeat(ROOM_PASSWORD_MIN);
const short = 'p'.repeat(ROOM_PASSWORD_MIN - 1);

describe('new meeting: protection', () => {
  it.each([
    ['a room with a password', withPassword, 'custom'],
    ['a room without', open, 'none'],
    ['no room at all', undefined, 'none'],
  ] as const)('%s starts on %s', (_name, room, security) => expect(initialSecurity(room)).toBe(security));

  it.each([
    ['none on an open room: nothing changes', open, 'none', '', { change: undefined, shown: null, hasPassword: false }],
    ['none on a protected room: its password is removed', withPassword, 'none', '', { change: null, shown: null, hasPassword: false }],
    ['custom, empty, on a protected room: kept, not shown', withPassword, 'custom', '', { change: undefined, shown: null, hasPassword: true }],
    ['custom, a new one, on an open room: set and shown', open, 'custom', good, { change: good, shown: good, hasPassword: true }],
    ['generated: set and shown', open, 'generated', good, { change: good, shown: good, hasPassword: true }],
    ['custom, empty, on an open room: too short', open, 'custom', '', { error: 'room_password_length' }],
    ['custom, one character short: too short', open, 'custom', short, { error: 'room_password_length' }],
    ['generated but emptied: too short', open, 'generated', '', { error: 'room_password_length' }],
  ] as const)('%s', (_name, room, security, password, plan) => {
    expect(planSecurity(room, security, password)).toEqual(plan);
  });

  it.each([
    ['generated, keep: the room keeps its password, nothing shown', 'generated', good, 'keep', { change: undefined, shown: null, hasPassword: true }],
    ['custom typed, keep: still kept', 'custom', good, 'keep', { change: undefined, shown: null, hasPassword: true }],
    ['generated, change for everyone: set and shown', 'generated', good, 'change', { change: good, shown: good, hasPassword: true }],
    ['custom typed, change for everyone: set and shown', 'custom', good, 'change', { change: good, shown: good, hasPassword: true }],
    ['change for everyone with nothing typed: too short', 'custom', '', 'change', { error: 'room_password_length' }],
    ['change for everyone, one character short: too short', 'custom', short, 'change', { error: 'room_password_length' }],
    ['none removes it whatever the answer', 'none', '', 'keep', { change: null, shown: null, hasPassword: false }],
  ] as const)('a room with a password: %s', (_name, security, password, roomPassword, plan) => {
    expect(planSecurity(withPassword, security, password, roomPassword)).toEqual(plan);
  });
});
