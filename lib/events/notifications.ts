// An event's reminder choices (SPEC point 9), written for create and update alike.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { Transaction } from '@/lib/db/client';
import { eventNotifications } from '@/lib/db/schema';
import type { NotificationInput } from './schemas';

/** An event's reminder choices, replaced as a whole (create and update). */
export async function writeNotifications(tx: Transaction, eventId: string, notifications: NotificationInput[]) {
  await tx.delete(eventNotifications).where(eq(eventNotifications.eventId, eventId));
  if (notifications.length) {
    await tx.insert(eventNotifications).values(notifications.map((n) => ({ eventId, type: n.type, time: n.time, timeType: n.timeType })));
  }
}
