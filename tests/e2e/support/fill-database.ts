// Fills the database of DATA_DIR / DATABASE_URL through the app's own domain functions: an
// account with a password, a room, a contact and a meeting with that contact invited. Run with
// tsx from the root of a checkout (`tsx --conditions=react-server <this file>`): the upgrade test
// copies it into an older release's checkout, so it uses only functions that release has too.
// Prints what it made as JSON on its last line.
import { closeDb, getDb } from '@/lib/db/client';
import { hashPassword } from '@/lib/auth/password';
import { insertUser } from '@/lib/users/create';
import { createRoom } from '@/lib/rooms/create';
import { roomSchema } from '@/lib/rooms/schemas';
import { createContact } from '@/lib/contacts/save';
import { contactSchema } from '@/lib/contacts/schemas';
import { createEvent } from '@/lib/events/create';
import { eventSchema } from '@/lib/events/schemas';

async function main() {
  const tag = process.env.FILL_TAG ?? 'filled';
  const made = {
    email: `${tag}-${Date.now()}@enclave.local`,
    password: 'Backup-Restore-2026',
    room: `${tag} room`,
    contact: { name: `${tag} contact`, email: `${tag}-guest@example.com` },
    event: `${tag} meeting`,
  };
  const db = await getDb();
  const user = await insertUser(db, {
    email: made.email,
    firstName: 'Filled',
    lastName: 'Account',
    passwordHash: await hashPassword(made.password),
    role: 'user',
    state: 'active',
    verifiedAt: new Date(),
    timezone: 'Europe/London',
    accountType: 'executive',
    numberOfRooms: 30,
    isTrial: false,
  });
  const room = await createRoom(user, roomSchema.parse({ name: made.room, color: 2 }));
  await createContact(user, contactSchema.parse({ ...made.contact, lang: 'fr', timezone: 'Europe/Paris' }));
  await createEvent(
    user,
    eventSchema.parse({
      title: made.event,
      from: Math.floor(Date.now() / 1000) + 7 * 24 * 3600,
      duration: '1:00',
      timezone: 'Europe/London',
      roomId: room.id,
      attendees: [made.contact.email],
      description: 'Made before the backup or the upgrade',
    }),
  );
  await closeDb();
  console.log(JSON.stringify(made));
}

main().then(
  () => process.exit(0),
  async (error) => {
    console.error(error);
    await closeDb();
    process.exit(1);
  },
);
