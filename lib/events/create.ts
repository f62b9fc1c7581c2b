import 'server-only';
import { getDb } from '@/lib/db/client';
import { lockOwner } from '@/lib/db/owner-lock';
import { events, type User } from '@/lib/db/schema';
import { kickMailWorker } from '@/lib/mail';
import { eventComponents, mailAttendees } from './mail';
import { resolveParticipants, writeParticipants } from './participants';
import { planReminders } from './reminders';
import { eventValues } from './event-values';
import { writeNotifications } from './notifications';
import type { EventInput } from './schemas';
import { eventDetails, type EventDetails } from './details';

/**
 * POST /api/event: the meeting, its attendees, groups and notifications, its reminders and the
 * attendees' invitations (with the .ics file) in one transaction: all of it or nothing.
 * A generated password is answered once, here; only its hash is kept.
 */
export async function createEvent(user: User, input: EventInput): Promise<{ event: EventDetails; password?: string }> {
  const now = new Date();
  const db = await getDb();
  const { event, password } = await db.transaction(async (tx) => {
    const owner = await lockOwner(tx, user.id);
    const { values, generatedPassword } = await eventValues(tx, owner, input, { now });
    const { participants, groupIds } = await resolveParticipants(tx, owner, input);
    const [event] = await tx
      .insert(events)
      .values({ ownerId: owner.id, ...values })
      .returning();
    await writeParticipants(tx, event!.id, participants, groupIds);
    await writeNotifications(tx, event!.id, input.notifications);
    await planReminders(tx, event!, { now });
    await mailAttendees(tx, 'eventInvitation', event!, participants, await eventComponents(tx, event!, participants), { now });
    return { event: event!, password: generatedPassword };
  });
  kickMailWorker();
  return { event: await eventDetails(db, event, now), ...(password ? { password } : {}) };
}
