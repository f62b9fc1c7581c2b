import { eq, inArray } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { attendees, groupMembers, groups, rooms } from '@/lib/db/schema';
import { GET as listRooms } from '@/app/api/rooms/route';
import { POST as addRoom } from '@/app/api/room/route';
import { POST as updateRoom } from '@/app/api/room/update/route';
import { DELETE as deleteRoom } from '@/app/api/room/[id]/route';
import { GET as startMeeting } from '@/app/api/startmeeting/[id]/route';
import { GET as listContacts } from '@/app/api/attendees/route';
import { POST as updateContact } from '@/app/api/attendee/update/route';
import { DELETE as deleteContact } from '@/app/api/attendee/[id]/route';
import { GET as listGroups, POST as addGroup } from '@/app/api/groups/route';
import { POST as updateGroup } from '@/app/api/groups/update/route';
import { DELETE as deleteGroup } from '@/app/api/groups/[id]/route';
import { POST as addContact } from '@/app/api/attendee/route';
import { call } from '../support/api';
import { addContacts, contactBody, owner, type Owner } from '../support/address-book';
import type { Answer } from '../support/api';

// Opening and migrating the database takes a while on a busy machine.
beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

/** Everything one user owns, as stored. */
async function everything(userId: string) {
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
  return {
    rooms: await db.select().from(rooms).where(eq(rooms.ownerId, userId)),
    attendees: await db.select().from(attendees).where(eq(attendees.ownerId, userId)),
    groups: ownGroups,
    members,
  };
}

interface Alice {
  room: { id: string; meetingId: string };
  contacts: string[];
  emails: string[];
  group: string;
}

describe('docs/design.md "Data": a second user can neither read, change nor delete another\'s rooms, contacts and groups', () => {
  let alice: Owner;
  let bob: Owner;
  let her: Alice;

  beforeAll(async () => {
    alice = await owner({ accountType: 'executive', numberOfRooms: 30 });
    bob = await owner({ accountType: 'executive', numberOfRooms: 30 });
    const room = (await alice.post(addRoom, { name: 'Alice room', password: 'alice-secret' })).json.room as Alice['room'];
    const contacts = await addContacts(alice, 2);
    const list = (await alice.get(listContacts)).json as unknown as { email: string }[];
    const group = (await alice.post(addGroup, { name: 'Alice group', attendees: contacts })).json.group as { id: string };
    her = { room, contacts, emails: list.map((c) => c.email), group: group.id };
    // Bob has things of his own, so that "nothing visible" is not just an empty account.
    await bob.post(addRoom, { name: 'Bob room' });
    await addContacts(bob, 2);
  }, 60_000);

  it.each([
    ['GET /api/rooms', () => bob.get(listRooms), 'Alice room'],
    ['GET /api/attendees', () => bob.get(listContacts), 'alice'],
    ['GET /api/groups', () => bob.get(listGroups), 'Alice group'],
  ] as const)('%s lists only his own', async (_name, run, hers) => {
    const answer = await run();
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain(hers === 'alice' ? her.emails[0]! : hers);
  });

  const attempts: [string, () => Promise<Answer>, number, string][] = [
    ['POST /api/room/update (rename)', () => bob.post(updateRoom, { id: her.room.id, name: 'Taken over' }), 404, 'room_not_found'],
    ['POST /api/room/update (new password)', () => bob.post(updateRoom, { id: her.room.id, password: null }), 404, 'room_not_found'],
    ['POST /api/room/update (default)', () => bob.post(updateRoom, { id: her.room.id, isDefault: true }), 404, 'room_not_found'],
    ['DELETE /api/room/{id}', () => bob.remove(deleteRoom, her.room.id), 404, 'room_not_found'],
    ['GET /api/startmeeting/{room id}', () => bob.get(startMeeting, { id: her.room.id }), 404, 'room_not_found'],
    ['GET /api/startmeeting/{meeting id}', () => bob.get(startMeeting, { id: her.room.meetingId }), 404, 'room_not_found'],
    ['POST /api/attendee/update', () => bob.post(updateContact, { id: her.contacts[0], name: 'Taken over' }), 404, 'attendee_not_found'],
    ['DELETE /api/attendee/{id}', () => bob.remove(deleteContact, her.contacts[0]!), 404, 'attendee_not_found'],
    ['POST /api/groups with her contact ids', () => bob.post(addGroup, { name: 'Stolen', attendees: JSON.stringify(her.contacts) }), 404, 'attendee_not_found'],
    ["POST /api/groups with her contacts' e-mails", () => bob.post(addGroup, { name: 'Stolen', attendees: her.emails }), 404, 'attendee_not_found'],
    ['POST /api/groups/update of her group', () => bob.post(updateGroup, { id: her.group, name: 'Taken over' }), 404, 'attendee_not_found'],
    [
      'POST /api/groups/update of his group with her contacts',
      async () => {
        const mine = await addContacts(bob, 2);
        const group = (await bob.post(addGroup, { name: `Bob group ${Date.now()}`, attendees: mine })).json.group as { id: string };
        return bob.post(updateGroup, { id: group.id, attendees: her.contacts });
      },
      404,
      'attendee_not_found',
    ],
    ['DELETE /api/groups/{id}', () => bob.remove(deleteGroup, her.group), 404, 'attendee_not_found'],
  ];

  it.each(attempts)('%s answers as not found and changes nothing of hers', async (_name, run, status, code) => {
    const before = await everything(alice.user.id);
    const answer = await run();
    expect([answer.status, answer.json.errorCode]).toEqual([status, code]);
    expect(await everything(alice.user.id)).toEqual(before);
  });

  it("a contact with her contact's e-mail is his own, separate contact", async () => {
    const answer = await bob.post(addContact, contactBody({ email: her.emails[0] }));
    expect(answer.status).toBe(200);
    expect((answer.json.attendee as { id: string }).id).not.toBe(her.contacts[0]);
  });

  it.each([
    ['GET /api/rooms', listRooms, 'GET', undefined],
    ['POST /api/room', addRoom, 'POST', { name: 'No session' }],
    ['POST /api/room/update', updateRoom, 'POST', { id: 'x' }],
    ['DELETE /api/room/{id}', deleteRoom, 'DELETE', undefined],
    ['GET /api/startmeeting/{id}', startMeeting, 'GET', undefined],
    ['GET /api/attendees', listContacts, 'GET', undefined],
    ['POST /api/attendee', addContact, 'POST', contactBody()],
    ['POST /api/attendee/update', updateContact, 'POST', { id: 'x' }],
    ['DELETE /api/attendee/{id}', deleteContact, 'DELETE', undefined],
    ['GET /api/groups', listGroups, 'GET', undefined],
    ['POST /api/groups', addGroup, 'POST', { name: 'x', attendees: '[]' }],
    ['POST /api/groups/update', updateGroup, 'POST', { id: 'x' }],
    ['DELETE /api/groups/{id}', deleteGroup, 'DELETE', undefined],
  ] as const)('%s without a session → 401 authentication_error', async (_name, handler, method, body) => {
    const answer = await call(handler as never, { method, body, params: { id: her.room.id } });
    expect([answer.status, answer.json.errorCode]).toEqual([401, 'authentication_error']);
  });
});
