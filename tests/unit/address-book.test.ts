import { colorField } from '@/lib/color-field';
import { colorOf, COLORS, DEFAULT_COLOR } from '@/lib/colors';
import { normalizePhone } from '@/lib/contacts/phone';
import { contactSchema } from '@/lib/contacts/schemas';
import { changesOf } from '@/lib/db/update-set';
import { isUuid } from '@/lib/db/uuid';
import { groupSchema } from '@/lib/groups/schemas';
import { participantLimit, roomLimit } from '@/lib/rooms/limits';
import { roomSchema, roomUpdateSchema } from '@/lib/rooms/schemas';
import { matchesSearch } from '@/lib/search';

const A = '0b6f3f5e-3c1b-4a77-9d43-5a0f3e6f2c11';
const B = '5d3a2c10-9f4e-4b1a-8c7d-2e6f1a0b9c8d';
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => (result.success ? 'ok' : result.error!.issues[0]!.message);

describe('SPEC point 9: twenty colours', () => {
  it('accepts 1 to 20 only', () => {
    expect(COLORS).toHaveLength(20);
    expect([0, 1, 20, 21, 2.5].map((n) => colorField.safeParse(n).success)).toEqual([false, true, true, false, false]);
  });

  it('maps each number to its colour, and anything else to the neutral default (not red)', () => {
    expect(new Set(COLORS.map((_, i) => colorOf(i + 1))).size).toBe(20);
    expect(colorOf(99)).toBe(COLORS[DEFAULT_COLOR - 1]);
    expect(colorOf(99)).not.toBe(COLORS[0]);
  });
});

describe('SPEC points 6 and 9: room limits with billing on', () => {
  it.each([
    { user: { numberOfRooms: 1 }, limit: 1 },
    { user: { numberOfRooms: 30 }, limit: 30 },
  ])('numberOfRooms $user.numberOfRooms → $limit', ({ user, limit }) => {
    expect(roomLimit(user, null)).toBe(limit);
  });

  it('2 participants on a trial, 30 otherwise', () => {
    expect(participantLimit({ isTrial: true }, null)).toBe(2);
    expect(participantLimit({ isTrial: false }, null)).toBe(30);
  });
});

describe('room rules shared by form and server', () => {
  it.each([
    { body: { name: 'Board room' }, expected: 'ok' },
    { body: { name: 'Tiny' }, expected: 'room_title_length' },
    { body: { name: 'Board room', password: '' }, expected: 'ok' },
    { body: { name: 'Board room', password: 'seven77' }, expected: 'room_password_length' },
    { body: { name: 'Board room', password: 'eight888' }, expected: 'ok' },
  ])('$body → $expected', ({ body, expected }) => {
    expect(firstMessage(roomSchema.safeParse(body))).toBe(expected);
  });

  it('an update may remove the password with null, which adding may not', () => {
    expect(roomUpdateSchema.safeParse({ id: A, password: null }).success).toBe(true);
    expect(roomSchema.safeParse({ name: 'Board room', password: null }).success).toBe(false);
  });
});

describe('phone numbers (libphonenumber-js)', () => {
  it.each([
    { number: '(202) 555-0143', country: undefined, expected: { phoneNumber: '+12025550143', countryCode: 'US', dialCode: '+1' } },
    { number: '020 7946 0958', country: 'GB', expected: { phoneNumber: '+442079460958', countryCode: 'GB', dialCode: '+44' } },
    { number: '+49 30 123456', country: 'US', expected: { phoneNumber: '+4930123456', countryCode: 'DE', dialCode: '+49' } },
    { number: '202-555-0143', country: 'XX', expected: { phoneNumber: '+12025550143', countryCode: 'US', dialCode: '+1' } },
    { number: '+800 1234 5678', country: 'US', expected: { phoneNumber: '+80012345678', countryCode: null, dialCode: '+800' } },
    { number: '12', country: 'US', expected: null },
    { number: 'call me', country: 'US', expected: null },
    { number: '202-555-0143', country: 'GB', expected: null },
  ])('$number ($country) → $expected', ({ number, country, expected }) => {
    expect(normalizePhone(number, country)).toEqual(expected);
  });

  it('the contact schema reports an invalid number on phoneNumber, and an empty one is no number', () => {
    const result = contactSchema.safeParse({ name: 'Ann', email: 'ann@example.test', phoneNumber: '12' });
    expect(result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['phoneNumber', 'incorrect_data']]);
    expect(contactSchema.safeParse({ name: 'Ann', email: 'ann@example.test', phoneNumber: '' }).success).toBe(true);
  });
});

describe('SPEC point 3: group attendees', () => {
  const parse = (attendees: unknown) => groupSchema.safeParse({ name: 'Team', attendees });

  it.each([
    { name: 'a JSON string of ids', attendees: JSON.stringify([A, B]), expected: [A, B] },
    { name: 'a real array', attendees: [A, B], expected: [A, B] },
    { name: 'e-mails, lower-cased', attendees: ['Ann@Example.test', B], expected: ['ann@example.test', B] },
    { name: 'duplicates once', attendees: [A, A.toUpperCase(), B], expected: [A, B] },
  ])('takes $name', ({ attendees, expected }) => {
    const result = parse(attendees);
    expect(result.success && result.data.attendees).toEqual(expected);
  });

  it.each([
    { name: 'one contact', attendees: [A] },
    { name: 'the same one twice', attendees: [A, A] },
    { name: 'invalid JSON', attendees: '[' },
    { name: 'a JSON object', attendees: '{}' },
    { name: 'nothing', attendees: undefined },
  ])('refuses $name with incorrect_data', ({ attendees }) => {
    expect(firstMessage(parse(attendees))).toBe('incorrect_data');
  });

  it('a missing name is group_name_required', () => {
    expect(firstMessage(groupSchema.safeParse({ name: ' ', attendees: [A, B] }))).toBe('group_name_required');
  });
});

describe('small helpers', () => {
  it('isUuid', () => {
    expect([A, A.toUpperCase(), 'abc', `${A}0`, ''].map(isUuid)).toEqual([true, true, false, false, false]);
  });

  it('changesOf keeps defined values, null included, and answers null when nothing is left', () => {
    expect(changesOf({ a: 1, b: undefined, c: null })).toEqual({ a: 1, c: null });
    expect(changesOf({ a: undefined })).toBeNull();
  });

  it.each([
    { query: '', fields: ['Anything'], expected: true },
    { query: 'zoe', fields: ['Zoë Ångström'], expected: true },
    { query: 'ANG zo', fields: ['Zoë Ångström'], expected: true },
    { query: 'example.test', fields: ['Ann', 'ann@example.test'], expected: true },
    { query: 'bob', fields: ['Ann', null, 'ann@example.test'], expected: false },
  ])('matchesSearch("$query") → $expected', ({ query, fields, expected }) => {
    expect(matchesSearch(query, ...fields)).toBe(expected);
  });
});
