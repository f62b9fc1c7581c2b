import fc from 'fast-check';
import { eq, inArray } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { attendees, groupMembers, groups, rooms } from '@/lib/db/schema';
import { POST as addRoom } from '@/app/api/room/route';
import { POST as updateRoom } from '@/app/api/room/update/route';
import { POST as addContact } from '@/app/api/attendee/route';
import { POST as updateContact } from '@/app/api/attendee/update/route';
import { POST as addGroup } from '@/app/api/groups/route';
import { POST as updateGroup } from '@/app/api/groups/update/route';
import { call, sessionCookies } from '../support/api';
import { addContacts, owner, type Owner } from '../support/address-book';

// Opening and migrating the database takes a while on a busy machine.
beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

/** What the user owns, as stored: only this user's rows, so parallel test files do not disturb it. */
async function snapshot(userId: string) {
  const db = await getDb();
  const ownGroups = await db.select().from(groups).where(eq(groups.ownerId, userId));
  const members = ownGroups.length
    ? await db
        .select()
        .from(groupMembers)
        .where(
          inArray(
            groupMembers.groupId,
            ownGroups.map((g) => g.id),
          ),
        )
    : [];
  const sorted = <T extends object>(rows: T[]) => rows.map((row) => JSON.stringify(row)).sort();
  return {
    rooms: sorted(await db.select().from(rooms).where(eq(rooms.ownerId, userId))),
    attendees: sorted(await db.select().from(attendees).where(eq(attendees.ownerId, userId))),
    groups: sorted(ownGroups),
    members: sorted(members),
  };
}

describe('property: random bodies never cause a 5xx, and a refused one creates or changes nothing', () => {
  let as: Owner;
  let body: fc.Arbitrary<unknown>;

  beforeAll(async () => {
    as = await owner({ accountType: 'executive', numberOfRooms: 30 });
    const contacts = await addContacts(as, 3);
    const room = (await as.post(addRoom, { name: 'Fuzzed room' })).json.room as { id: string };
    const group = (await as.post(addGroup, { name: 'Fuzzed group', attendees: contacts })).json.group as { id: string };
    // Real ids now and then, so that the rules past "not found" are reached too.
    const id = fc.oneof(fc.constantFrom(room.id, group.id, ...contacts), fc.uuid(), fc.string({ maxLength: 80 }));
    const value = fc.oneof(fc.jsonValue(), fc.string({ maxLength: 300 }), fc.integer({ min: -5, max: 25 }));
    const fields = {
      id,
      name: value,
      color: value,
      password: fc.oneof(value, fc.constant(null)),
      isDefault: value,
      email: fc.oneof(value, fc.emailAddress()),
      phoneNumber: fc.oneof(value, fc.stringMatching(/^\+?[0-9 ()-]{0,20}$/)),
      countryCode: fc.oneof(value, fc.constantFrom('US', 'GB', 'DE', 'XX')),
      lang: fc.oneof(value, fc.constantFrom('en', 'de', 'ja')),
      timezone: fc.oneof(value, fc.constantFrom('Europe/Paris', 'UTC', 'Nowhere/Place')),
      attendees: fc.oneof(
        value,
        fc.array(fc.oneof(id, fc.emailAddress()), { maxLength: 5 }).map((list) => JSON.stringify(list)),
      ),
    };
    body = fc.oneof(fc.jsonValue(), fc.record(fields, { requiredKeys: [] }), fc.string({ maxLength: 200 }));
  }, 60_000);

  it.each([
    ['POST /api/room', addRoom],
    ['POST /api/room/update', updateRoom],
    ['POST /api/attendee', addContact],
    ['POST /api/attendee/update', updateContact],
    ['POST /api/groups', addGroup],
    ['POST /api/groups/update', updateGroup],
  ] as const)(
    '%s',
    async (_name, handler) => {
      await fc.assert(
        fc.asyncProperty(body, async (value) => {
          const before = await snapshot(as.user.id);
          const answer = await call(handler as never, {
            method: 'POST',
            body: typeof value === 'string' ? value : JSON.stringify(value),
            cookies: sessionCookies(as.cookie),
          });
          expect(answer.status).toBeLessThan(500);
          expect(answer.json.status).toBe(answer.status === 200 ? 'ok' : 'error');
          if (answer.status >= 400) expect(await snapshot(as.user.id)).toEqual(before);
        }),
        { numRuns: 60 },
      );
    },
    120_000,
  );
});
