import { sql } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { attendees, configuration, groupMembers, groups, rooms, users } from '@/lib/db/schema';
import { createUser } from '../support/api';

afterAll(() => closeDb());

// The database itself refuses data that breaks SPEC point 3, whatever code writes it.
describe('data layer constraints', () => {
  it('migrations leave exactly one configuration row', async () => {
    const db = await getDb();
    const rows = await db.select().from(configuration);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ productPriceCents: 3495, enable2fa: true });
  });

  it('an e-mail is registered once, whatever its case', async () => {
    const { user } = await createUser();
    await expect(createUser({ email: user.email.toUpperCase() })).rejects.toThrow();
  });

  it('a new user starts a 14-day trial', async () => {
    const { user } = await createUser();
    const days = (user.trialEndsAt.getTime() - user.registrationDate.getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(14);
    expect(user).toMatchObject({ isTrial: true, role: 'user', theme: 'green', numberOfRooms: 1 });
  });

  it('colors are 1 to 20', async () => {
    const db = await getDb();
    const { user } = await createUser();
    const room = (color: number) => db.insert(rooms).values({ ownerId: user.id, name: `Room ${color}`, color, meetingId: `m-${user.id}-${color}` });
    await expect(room(0)).rejects.toThrow();
    await expect(room(21)).rejects.toThrow();
    await expect(room(20)).resolves.toBeDefined();
  });

  it('a user has at most one default room', async () => {
    const db = await getDb();
    const { user } = await createUser();
    const room = (name: string) => db.insert(rooms).values({ ownerId: user.id, name, isDefault: true, meetingId: `d-${user.id}-${name}` });
    await room('First room');
    await expect(room('Second room')).rejects.toThrow();
  });

  it('room, contact and group names are unique per user, not across users', async () => {
    const db = await getDb();
    const a = (await createUser()).user;
    const b = (await createUser()).user;
    await db.insert(attendees).values({ ownerId: a.id, name: 'Ann', email: 'ann@example.test' });
    await expect(db.insert(attendees).values({ ownerId: a.id, name: 'Ann', email: 'ANN@example.test' })).rejects.toThrow();
    await expect(db.insert(attendees).values({ ownerId: b.id, name: 'Ann', email: 'ann@example.test' })).resolves.toBeDefined();
  });

  it('deleting a user removes everything they own', async () => {
    const db = await getDb();
    const { user } = await createUser();
    const [contact] = await db.insert(attendees).values({ ownerId: user.id, name: 'Bo', email: 'bo@example.test' }).returning();
    const [group] = await db.insert(groups).values({ ownerId: user.id, name: 'Team' }).returning();
    await db.insert(groupMembers).values({ groupId: group!.id, attendeeId: contact!.id });
    await db.delete(users).where(sql`${users.id} = ${user.id}`);
    const left = await db
      .select()
      .from(groupMembers)
      .where(sql`${groupMembers.groupId} = ${group!.id}`);
    expect(left).toEqual([]);
  });
});
