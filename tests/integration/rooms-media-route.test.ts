// Issue 38, "The host can pin a room to either mode": a room's "Calls in this room" setting
// through the rooms API, into the meeting's public info, refused when malformed, and only ever
// changed by its owner.
import '../support/billing-on-env';
import { eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { rooms } from '@/lib/db/schema';
import { GET as listRooms } from '@/app/api/rooms/route';
import { POST as addRoom } from '@/app/api/room/route';
import { POST as updateRoom } from '@/app/api/room/update/route';
import { GET as meetingInfo } from '@/app/api/meeting/[id]/route';
import { call } from '../support/api';
import { owner, type Owner } from '../support/address-book';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

type RoomAnswer = { id: string; name: string; meetingId: string; mediaRoute: string };
const executive = () => owner({ accountType: 'executive', numberOfRooms: 30 });

async function add(as: Owner, body: Record<string, unknown>): Promise<RoomAnswer> {
  const answer = await as.post(addRoom, body);
  if (answer.status !== 200) throw new Error(answer.text);
  return answer.json.room as RoomAnswer;
}

async function stored(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(rooms).where(eq(rooms.id, id));
  return row!;
}

/** What the lobby reads: GET /api/meeting/{id}, as a guest. */
async function infoRoute(meetingId: string) {
  const answer = await call(meetingInfo as never, { params: { id: meetingId } });
  expect(answer.status).toBe(200);
  return answer.json.mediaRoute;
}

describe('"Calls in this room" (issue 38)', () => {
  it('a room created without the field is automatic, in the answer, the list, the database and the meeting', async () => {
    const as = await executive();
    const room = await add(as, { name: 'Plain room' });
    expect(room.mediaRoute).toBe('auto');
    expect((await as.get(listRooms)).json).toEqual([expect.objectContaining({ id: room.id, mediaRoute: 'auto' })]);
    expect((await stored(room.id)).mediaRoute).toBe('auto');
    expect(await infoRoute(room.meetingId)).toBe('auto');
  });

  it.each(['auto', 'mesh', 'sfu'])('is created as %s, and the meeting says so', async (mediaRoute) => {
    const as = await executive();
    const room = await add(as, { name: `Room ${mediaRoute}`, mediaRoute });
    expect(room.mediaRoute).toBe(mediaRoute);
    expect((await stored(room.id)).mediaRoute).toBe(mediaRoute);
    expect(await infoRoute(room.meetingId)).toBe(mediaRoute);
  });

  it('is changed by an update to each value in turn, and kept by an update that leaves it out', async () => {
    const as = await executive();
    const room = await add(as, { name: 'Changing room' });
    for (const mediaRoute of ['sfu', 'mesh', 'auto', 'sfu']) {
      const answer = await as.post(updateRoom, { id: room.id, mediaRoute });
      expect(answer.status).toBe(200);
      expect(answer.json.room).toMatchObject({ mediaRoute });
      expect(await infoRoute(room.meetingId)).toBe(mediaRoute);
    }
    const renamed = await as.post(updateRoom, { id: room.id, name: 'Renamed room' });
    expect(renamed.json.room).toMatchObject({ name: 'Renamed room', mediaRoute: 'sfu' });
    expect((await stored(room.id)).mediaRoute).toBe('sfu');
  });

  it.each([
    { label: 'an unknown value', mediaRoute: 'janus' },
    { label: 'a value in capitals', mediaRoute: 'SFU' },
    { label: 'an empty value', mediaRoute: '' },
    { label: 'null', mediaRoute: null },
    { label: 'a number', mediaRoute: 1 },
    { label: 'a list', mediaRoute: ['sfu'] },
  ])('$label → 400 incorrect_data on create and on update, and nothing changes', async ({ mediaRoute }) => {
    const as = await executive();
    const created = await as.post(addRoom, { name: 'Refused room', mediaRoute });
    expect(created.status).toBe(400);
    expect(created.json).toMatchObject({ status: 'error', errorCode: 'incorrect_data' });
    expect((await as.get(listRooms)).json).toEqual([]);

    const room = await add(as, { name: 'Kept room', mediaRoute: 'mesh' });
    const before = await stored(room.id);
    const updated = await as.post(updateRoom, { id: room.id, mediaRoute });
    expect(updated.status).toBe(400);
    expect(updated.json).toMatchObject({ status: 'error', errorCode: 'incorrect_data' });
    expect(await stored(room.id)).toEqual(before);
  });

  it("another user cannot change a room's setting: room_not_found, and the room is as it was", async () => {
    const ann = await executive();
    const bob = await executive();
    const annRoom = await add(ann, { name: 'Ann room', mediaRoute: 'mesh' });
    const bobRoom = await add(bob, { name: 'Bob room' });
    const before = await stored(annRoom.id);
    const answer = await bob.post(updateRoom, { id: annRoom.id, mediaRoute: 'sfu' });
    expect([answer.status, answer.json.errorCode]).toEqual([404, 'room_not_found']);
    expect(await stored(annRoom.id)).toEqual(before);
    expect(await infoRoute(annRoom.meetingId)).toBe('mesh');
    // Bob's own room is his to pin.
    expect((await bob.post(updateRoom, { id: bobRoom.id, mediaRoute: 'sfu' })).json.room).toMatchObject({ mediaRoute: 'sfu' });
    expect(await infoRoute(annRoom.meetingId)).toBe('mesh');
  });

  it('the database itself refuses any other value', async () => {
    const as = await executive();
    const room = await add(as, { name: 'Checked room' });
    const db = await getDb();
    await expect(
      db
        .update(rooms)
        .set({ mediaRoute: 'janus' as never })
        .where(eq(rooms.id, room.id)),
    ).rejects.toThrow();
    expect((await stored(room.id)).mediaRoute).toBe('auto');
  });
});
