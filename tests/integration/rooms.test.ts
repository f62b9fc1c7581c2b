import '../support/billing-on-env';
import { DEFAULT_COLOR } from '@/lib/colors';
import { eq } from 'drizzle-orm';
import { verifyPassword } from '@/lib/auth/password';
import { config } from '@/lib/environment';
import { closeDb, getDb } from '@/lib/db/client';
import { events, rooms } from '@/lib/db/schema';
import { GET as listRooms } from '@/app/api/rooms/route';
import { POST as addRoom } from '@/app/api/room/route';
import { POST as updateRoom } from '@/app/api/room/update/route';
import { DELETE as deleteRoom } from '@/app/api/room/[id]/route';
import { GET as startMeeting } from '@/app/api/startmeeting/[id]/route';
import { roomPasswordSecrets, stretchRoomPassword } from '@/lib/meeting/room-password';
import { owner, type Owner } from '../support/address-book';
import { wrongProof } from '../support/meeting';

// Opening and migrating the database takes a while on a busy machine.
beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const executive = () => owner({ accountType: 'executive', numberOfRooms: 30 });
type RoomAnswer = { id: string; name: string; isDefault: boolean; hasPassword: boolean; link: string; meetingId: string };

async function add(as: Owner, body: Record<string, unknown>): Promise<RoomAnswer> {
  const answer = await as.post(addRoom, body);
  if (answer.status !== 200) throw new Error(answer.text);
  return answer.json.room as RoomAnswer;
}

/** What the room form sends for a new password: a salt and the proof made with it (no stretching needed here). */
const sealed = () => ({ passwordProof: wrongProof(), passwordSalt: wrongProof().slice(0, 22) });

async function storedRoom(id: string) {
  const db = await getDb();
  const [room] = await db.select().from(rooms).where(eq(rooms.id, id));
  return room;
}

async function listOf(as: Owner) {
  return (await as.get(listRooms)).json as unknown as RoomAnswer[];
}

describe('POST /api/room: SPEC point 5 rules', () => {
  it.each([
    { name: 'missing name', body: { color: 2 }, code: 'room_title_length' },
    { name: 'empty name', body: { name: '' }, code: 'room_title_length' },
    { name: 'four characters', body: { name: 'Tiny' }, code: 'room_title_length' },
    { name: 'five characters once trimmed to four', body: { name: '  Tiny  ' }, code: 'room_title_length' },
    { name: 'a name that is not text', body: { name: 12345 }, code: 'room_title_length' },
    { name: 'a very long name', body: { name: 'x'.repeat(101) }, code: 'incorrect_data' },
    { name: 'colour 0', body: { name: 'Board room', color: 0 }, code: 'incorrect_data' },
    { name: 'colour 21', body: { name: 'Board room', color: 21 }, code: 'incorrect_data' },
    { name: 'colour 1.5', body: { name: 'Board room', color: 1.5 }, code: 'incorrect_data' },
    { name: 'colour as text', body: { name: 'Board room', color: '3' }, code: 'incorrect_data' },
    { name: 'a 7-character password', body: { name: 'Board room', password: 'seven77' }, code: 'room_password_length' },
    { name: 'a password that is not text', body: { name: 'Board room', password: 12345678 }, code: 'incorrect_data' },
    { name: 'a default flag that is not a boolean', body: { name: 'Board room', isDefault: 'yes' }, code: 'incorrect_data' },
    { name: 'a body that is not an object', body: '"Board room"', code: 'incorrect_data' },
    { name: 'a body that is not JSON', body: '{name:', code: 'incorrect_data' },
  ])('$name → 400 $code, and no room is created', async ({ body, code }) => {
    const as = await executive();
    const answer = await as.post(addRoom, body);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: 'error', errorCode: code, message: expect.any(String) });
    expect(await listOf(as)).toEqual([]);
  });

  it('creates the first room as the default, with a random meeting link and "managed by" its creator', async () => {
    const as = await executive();
    const answer = await as.post(addRoom, { name: '  Weekly sync  ', color: 7 });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      status: 'ok',
      room: {
        name: 'Weekly sync',
        color: 7,
        isDefault: true,
        hasPassword: false,
        adminName: 'Test User',
        adminEmail: as.user.email,
        createdAt: expect.any(String),
      },
    });
    const room = answer.json.room as RoomAnswer;
    expect(room.meetingId).toMatch(/^[\w-]{22}$/);
    expect(room.link).toBe(`http://localhost:3000/now/${room.meetingId}`);
    const other = await add(as, { name: 'Second room' });
    expect(other.meetingId).not.toBe(room.meetingId);
    expect(other.isDefault).toBe(false);
  });

  it('a room created without a colour gets the neutral one, not red (issue 33); a chosen one is kept', async () => {
    const as = await executive();
    expect(await add(as, { name: 'Plain room' })).toMatchObject({ color: DEFAULT_COLOR });
    expect(await add(as, { name: 'Red room', color: 1 })).toMatchObject({ color: 1 });
    expect(DEFAULT_COLOR).not.toBe(1);
  });

  it('keeps only an argon2id verifier of the proof the form sends, and its salt', async () => {
    const as = await executive();
    const password = sealed();
    const answer = await as.post(addRoom, { name: 'Private room', ...password });
    expect(answer.text).not.toContain(password.passwordProof);
    expect(answer.text).not.toContain('argon2');
    const room = answer.json.room as RoomAnswer;
    expect(room.hasPassword).toBe(true);
    const stored = await storedRoom(room.id);
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(stored?.passwordSalt).toBe(password.passwordSalt);
    expect(await verifyPassword(stored!.passwordHash!, password.passwordProof)).toBe(true);
  });

  it("an API client's plain password is turned into a proof with a fresh salt, and is not kept", async () => {
    const as = await executive();
    const answer = await as.post(addRoom, { name: 'Private room', password: 'correct horse' });
    expect(answer.text).not.toContain('correct horse');
    const stored = await storedRoom((answer.json.room as RoomAnswer).id);
    expect(stored?.passwordSalt).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await verifyPassword(stored!.passwordHash!, 'correct horse')).toBe(false);
    // A browser that types the same password makes the same proof with the room's salt.
    const { proof } = await roomPasswordSecrets(await stretchRoomPassword('correct horse', stored!.passwordSalt!));
    expect(await verifyPassword(stored!.passwordHash!, proof)).toBe(true);
  });

  it.each([
    { name: 'a proof without its salt', body: { passwordProof: wrongProof() }, code: 'missing_data' },
    { name: 'a salt without its proof', body: { passwordSalt: wrongProof().slice(0, 22) }, code: 'missing_data' },
    { name: 'a proof and a plain password', body: { ...sealed(), password: 'correct horse' }, code: 'incorrect_data' },
    { name: 'a malformed salt', body: { passwordProof: wrongProof(), passwordSalt: 'not base64url!' }, code: 'incorrect_data' },
    { name: 'a malformed proof', body: { passwordProof: 'short', passwordSalt: wrongProof().slice(0, 22) }, code: 'incorrect_password' },
  ])('$name → $code, and no room', async ({ body, code }) => {
    const as = await executive();
    const answer = await as.post(addRoom, { name: 'Private room', ...body });
    expect([answer.status, answer.json.errorCode]).toEqual([400, code]);
    expect(await as.get(listRooms).then((a) => a.json)).toEqual([]);
  });

  it('an empty password means an open room', async () => {
    const as = await executive();
    expect((await add(as, { name: 'Open room', password: '' })).hasPassword).toBe(false);
  });

  it('room_already_exists (409) for a name the user already has, whatever its case; another user may use it', async () => {
    const as = await executive();
    await add(as, { name: 'Design review' });
    const again = await as.post(addRoom, { name: 'DESIGN REVIEW' });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ errorCode: 'room_already_exists', field: 'name' });
    const someoneElse = await executive();
    expect((await someoneElse.post(addRoom, { name: 'Design review' })).status).toBe(200);
  });

  it('setting a new room as default moves the flag: exactly one default room', async () => {
    const as = await executive();
    const first = await add(as, { name: 'First room' });
    const second = await add(as, { name: 'Second room', isDefault: true });
    expect(second.isDefault).toBe(true);
    const list = await listOf(as);
    expect(list.filter((room) => room.isDefault).map((room) => room.id)).toEqual([second.id]);
    expect(list.map((room) => room.id)).toEqual([first.id, second.id]);
  });
});

describe('SPEC points 6 and 9: room limits', () => {
  it.each([
    { plan: 'individual', numberOfRooms: 1 },
    { plan: 'executive', numberOfRooms: 3 },
    { plan: 'executive', numberOfRooms: 30 },
  ] as const)('$plan with $numberOfRooms room(s): one more answers room_max_limit', async ({ plan, numberOfRooms }) => {
    const as = await owner({ accountType: plan, numberOfRooms });
    for (let i = 0; i < numberOfRooms; i += 1) await add(as, { name: `Room number ${i}` });
    const over = await as.post(addRoom, { name: 'One room too many' });
    expect(over.status).toBe(400);
    expect(over.json.errorCode).toBe('room_max_limit');
    expect(await listOf(as)).toHaveLength(numberOfRooms);
  });

  it('concurrent requests cannot pass the limit together', async () => {
    const as = await owner({ numberOfRooms: 2 });
    const answers = await Promise.all([1, 2, 3, 4].map((n) => as.post(addRoom, { name: `Racing room ${n}` })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    expect(answers.filter((answer) => answer.json.errorCode === 'room_max_limit')).toHaveLength(2);
    expect((await listOf(as)).filter((room) => room.isDefault)).toHaveLength(1);
  });

  it("ON_PREMISE: no room limit (SPEC point 4: on-premise installs skip room limits), not the plan's 1 nor the configured 10", async () => {
    // This file runs with BILLING=stripe, which ON_PREMISE=true contradicts: only ON_PREMISE here.
    const settings = config as { onPremise: boolean; billing?: string };
    settings.onPremise = true;
    settings.billing = undefined;
    try {
      const as = await owner({ numberOfRooms: 1 });
      for (const n of [1, 2, 3]) await add(as, { name: `On-premise room ${n}` });
      expect(await listOf(as)).toHaveLength(3);
      for (let n = 4; n <= 12; n += 1) await add(as, { name: `On-premise room ${n}` });
      expect(await listOf(as)).toHaveLength(12);
    } finally {
      settings.onPremise = false;
      settings.billing = 'stripe';
    }
  });
});

describe('POST /api/room/update', () => {
  let as: Owner;
  let room: RoomAnswer;
  beforeEach(async () => {
    as = await executive();
    room = await add(as, { name: 'Team room', ...sealed() });
  });

  it.each([
    { name: 'missing id', body: { id: undefined, name: 'New name' }, status: 400, code: 'missing_data' },
    { name: 'an unknown id', body: { id: '0b6f3f5e-3c1b-4a77-9d43-5a0f3e6f2c11' }, status: 404, code: 'room_not_found' },
    { name: 'a malformed id', body: { id: 'not-a-uuid' }, status: 404, code: 'room_not_found' },
    { name: 'a very long id', body: { id: 'x'.repeat(65) }, status: 404, code: 'room_not_found' },
    { name: 'a short name', body: { name: 'Tiny' }, status: 400, code: 'room_title_length' },
    { name: 'a short password', body: { password: 'short' }, status: 400, code: 'room_password_length' },
    { name: 'colour 21', body: { color: 21 }, status: 400, code: 'incorrect_data' },
  ])('$name → $status $code, and the room is unchanged', async ({ body, status, code }) => {
    const before = await storedRoom(room.id);
    const answer = await as.post(updateRoom, { id: room.id, ...body });
    expect(answer.status).toBe(status);
    expect(answer.json.errorCode).toBe(code);
    expect(await storedRoom(room.id)).toEqual(before);
  });

  it('changes name and colour and keeps the password when none is given', async () => {
    const before = await storedRoom(room.id);
    const answer = await as.post(updateRoom, { id: room.id, name: 'Renamed room', color: 20, password: '' });
    expect(answer.json).toMatchObject({ status: 'ok', room: { name: 'Renamed room', color: 20, hasPassword: true, meetingId: room.meetingId } });
    expect((await storedRoom(room.id))?.passwordHash).toBe(before?.passwordHash);
  });

  it('the owner can set a new password (a new salt), or remove it with null', async () => {
    const before = await storedRoom(room.id);
    const second = sealed();
    await as.post(updateRoom, { id: room.id, ...second });
    const stored = await storedRoom(room.id);
    expect(stored?.passwordSalt).toBe(second.passwordSalt);
    expect(stored?.passwordSalt).not.toBe(before?.passwordSalt);
    expect(await verifyPassword(stored!.passwordHash!, second.passwordProof)).toBe(true);
    const removed = await as.post(updateRoom, { id: room.id, password: null });
    expect(removed.json).toMatchObject({ room: { hasPassword: false } });
    expect(await storedRoom(room.id)).toMatchObject({ passwordHash: null, passwordSalt: null });
  });

  it("room_already_exists for another room's name; keeping its own name is fine", async () => {
    await add(as, { name: 'Other room' });
    expect((await as.post(updateRoom, { id: room.id, name: 'other ROOM' })).json.errorCode).toBe('room_already_exists');
    expect((await as.post(updateRoom, { id: room.id, name: 'TEAM room' })).status).toBe(200);
  });

  it('making another room the default moves the flag; unflagging the default alone is ignored', async () => {
    const other = await add(as, { name: 'Other room' });
    await as.post(updateRoom, { id: other.id, isDefault: true });
    let list = await listOf(as);
    expect(list.filter((r) => r.isDefault).map((r) => r.id)).toEqual([other.id]);
    await as.post(updateRoom, { id: other.id, isDefault: false });
    list = await listOf(as);
    expect(list.filter((r) => r.isDefault).map((r) => r.id)).toEqual([other.id]);
  });

  it('an update with nothing to change answers the room as it is', async () => {
    const answer = await as.post(updateRoom, { id: room.id });
    expect(answer.json).toMatchObject({ status: 'ok', room: { id: room.id, name: 'Team room' } });
  });
});

describe('DELETE /api/room/{id}', () => {
  async function addEvent(as: Owner, roomId: string, cancelled: boolean) {
    const db = await getDb();
    const [event] = await db
      .insert(events)
      .values({
        ownerId: as.user.id,
        roomId,
        startsAt: new Date(Date.now() + 86_400_000),
        durationMinutes: 30,
        timezone: 'Europe/London',
        cancelledAt: cancelled ? new Date() : null,
      })
      .returning();
    return event!;
  }

  it('removes a room; deleting the default makes the oldest remaining room the default', async () => {
    const as = await executive();
    const first = await add(as, { name: 'First room' });
    const second = await add(as, { name: 'Second room' });
    const third = await add(as, { name: 'Third room' });
    expect((await as.remove(deleteRoom, first.id)).json).toEqual({ status: 'ok' });
    const list = await listOf(as);
    expect(list.map((r) => [r.id, r.isDefault])).toEqual([
      [second.id, true],
      [third.id, false],
    ]);
  });

  it('the last room can go too', async () => {
    const as = await executive();
    const only = await add(as, { name: 'Only room' });
    expect((await as.remove(deleteRoom, only.id)).status).toBe(200);
    expect(await listOf(as)).toEqual([]);
  });

  it('cant_remove_room while a meeting that is not cancelled uses it', async () => {
    const as = await executive();
    const room = await add(as, { name: 'Busy room' });
    await addEvent(as, room.id, false);
    const answer = await as.remove(deleteRoom, room.id);
    expect(answer.status).toBe(400);
    expect(answer.json.errorCode).toBe('cant_remove_room');
    expect(await storedRoom(room.id)).toBeDefined();
  });

  it('cancelled meetings do not block it, and keep their history without the room', async () => {
    const as = await executive();
    const room = await add(as, { name: 'Quiet room' });
    const event = await addEvent(as, room.id, true);
    expect((await as.remove(deleteRoom, room.id)).status).toBe(200);
    const db = await getDb();
    const [kept] = await db.select().from(events).where(eq(events.id, event.id));
    expect(kept?.roomId).toBeNull();
  });

  it.each([
    { name: 'an unknown id', id: '0b6f3f5e-3c1b-4a77-9d43-5a0f3e6f2c11' },
    { name: 'a malformed id', id: 'room-1' },
  ])('$name → 404 room_not_found', async ({ id }) => {
    const as = await executive();
    const answer = await as.remove(deleteRoom, id);
    expect(answer.status).toBe(404);
    expect(answer.json.errorCode).toBe('room_not_found');
  });
});

describe('GET /api/rooms and GET /api/startmeeting/{id}', () => {
  it("lists the user's rooms without any password hash", async () => {
    const as = await executive();
    const password = sealed();
    await add(as, { name: 'Listed room', ...password });
    const answer = await as.get(listRooms);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([expect.objectContaining({ name: 'Listed room', hasPassword: true })]);
    expect(answer.text).not.toMatch(/argon2|passwordHash/);
    expect(answer.text).not.toContain(password.passwordProof);
  });

  it('answers what the meeting needs, by room id or by meeting id', async () => {
    const as = await executive();
    const room = await add(as, { name: 'Meeting room', ...sealed() });
    for (const id of [room.id, room.meetingId]) {
      const answer = await as.get(startMeeting, { id });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({
        id: room.id,
        name: 'Meeting room',
        meetingId: room.meetingId,
        link: room.link,
        hasPassword: true,
        maxParticipants: 2,
        host: { email: as.user.email },
      });
      expect(answer.text).not.toContain('argon2');
    }
  });

  it('a paid account may have 30 participants', async () => {
    const as = await owner({ isTrial: false });
    const room = await add(as, { name: 'Paid room' });
    expect((await as.get(startMeeting, { id: room.id })).json.maxParticipants).toBe(30);
  });

  it.each(['0b6f3f5e-3c1b-4a77-9d43-5a0f3e6f2c11', 'unknown-meeting', 'x'.repeat(300)])('%s → 404 room_not_found', async (id) => {
    const as = await executive();
    const answer = await as.get(startMeeting, { id });
    expect(answer.status).toBe(404);
    expect(answer.json.errorCode).toBe('room_not_found');
  });
});
