// drizzle/0009_change_notifications.sql on PostgreSQL: its triggers notify only a connection that
// turned them on (the embedded PGlite does, lib/db/change-feed.ts). The app's own connections do
// not, so their commits take no NOTIFY lock and send nothing nobody listens to.
import { eq } from 'drizzle-orm';
import postgres from 'postgres';
import { closeDb, getDb } from '@/lib/db/client';
import { changeFeedOf } from '@/lib/db/change-feed';
import { users } from '@/lib/db/schema';
import { createUser } from '../support/api';

afterAll(() => closeDb());

it('the app’s writes notify nothing; a connection that turns the setting on is notified of its own', async () => {
  const db = await getDb();
  expect(changeFeedOf(db)).toBeUndefined();
  const listener = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  const heard: string[] = [];
  try {
    await listener.listen('enclave_changes', (payload) => heard.push(payload));
    const { user } = await createUser();
    await db.update(users).set({ firstName: 'Unheard' }).where(eq(users.id, user.id));

    await listener.begin(async (tx) => {
      await tx`select set_config('enclave.notify_changes', 'on', true)`;
      await tx`update users set first_name = 'Heard' where id = ${user.id}`;
    });
    // Delivered after the commit, on the listening connection: wait until it is there.
    for (let waited = 0; heard.length === 0 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toEqual([`users:${user.id}`]);
  } finally {
    await listener.end({ timeout: 1 });
  }
});
