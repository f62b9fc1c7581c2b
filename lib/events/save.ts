import 'server-only';
import { and, eq } from 'drizzle-orm';
import { ApiError } from '@/lib/api/errors';
import { hashPassword } from '@/lib/auth/password';
import type { Transaction } from '@/lib/db/client';
import { eventNotifications, rooms, type Event, type User } from '@/lib/db/schema';
import { findOwnRoom } from '@/lib/rooms/find';
import { meetingLink } from '@/lib/rooms/view';
import { generateMeetingPassword } from './password';
import { buildRRule, seriesEnd, type CustomRepeat } from './recurrence';
import { durationMinutes, leadMinutes, type EventInput, type NotificationInput } from './schemas';

export type EventValues = Pick<
  Event,
  | 'title'
  | 'description'
  | 'startsAt'
  | 'durationMinutes'
  | 'timezone'
  | 'repeatType'
  | 'rrule'
  | 'repeatCustom'
  | 'showAttendees'
  | 'passwordMode'
  | 'passwordHash'
  | 'roomId'
  | 'link'
  | 'endsAt'
>;

/**
 * The columns of an event from the wizard's input, with the rules that need more than the
 * schema (SPEC point 5): no meeting in the past (its start before now — the same instant in its
 * own zone), and without repeat only reminders that fit before the start. A meeting without a
 * room takes the user's default room, whose link it carries (never an encryption key).
 */
export async function eventValues(
  tx: Transaction,
  owner: User,
  input: EventInput,
  options: { now: Date; previous?: Event; checkPast?: boolean },
): Promise<{ values: EventValues; generatedPassword?: string }> {
  const start = new Date(input.from * 1000);
  if ((options.checkPast ?? true) && start < options.now) throw new ApiError('error_is_past_event', { field: 'from' });
  const minutes = durationMinutes(input.duration);
  const custom = input.repeatType === 'custom' ? ((input.repeatCustom ?? null) as CustomRepeat | null) : null;
  const rrule = buildRRule(input.repeatType, start, input.timezone, custom);
  if (custom?.end?.type === 'until' && rrule && new Date(`${custom.end.date}T23:59:59Z`).getTime() < start.getTime() - 86_400_000) {
    throw new ApiError('incorrect_data', { field: 'repeatCustom' });
  }
  if (!rrule) {
    for (const n of input.notifications) {
      if (start.getTime() - leadMinutes(n) * 60_000 < options.now.getTime()) {
        throw new ApiError('notification_not_added', { field: 'notifications' });
      }
    }
  }
  const room = input.roomId
    ? await findOwnRoom(tx, owner.id, input.roomId)
    : input.roomId === null
      ? null
      : ((await tx.select().from(rooms).where(and(eq(rooms.ownerId, owner.id), eq(rooms.isDefault, true))))[0] ?? null);

  let passwordHash: string | null = null;
  let generatedPassword: string | undefined;
  if (input.passwordMode === 'custom') {
    passwordHash = input.password ? await hashPassword(input.password) : (options.previous?.passwordHash ?? null);
    if (!passwordHash) throw new ApiError('room_password_length', { field: 'password' });
  } else if (input.passwordMode === 'generated') {
    const keep = options.previous?.passwordMode === 'generated' && options.previous.passwordHash;
    if (keep) passwordHash = keep;
    else {
      generatedPassword = generateMeetingPassword();
      passwordHash = await hashPassword(generatedPassword);
    }
  }
  const series = { start, timezone: input.timezone, durationMinutes: minutes, rrule };
  return {
    values: {
      title: input.title,
      description: input.description || null,
      startsAt: start,
      durationMinutes: minutes,
      timezone: input.timezone,
      repeatType: rrule ? input.repeatType : 'none',
      rrule,
      repeatCustom: custom as Record<string, unknown> | null,
      showAttendees: input.showAttendees,
      passwordMode: input.passwordMode,
      passwordHash,
      roomId: room?.id ?? null,
      link: room ? meetingLink(room.meetingId) : null,
      endsAt: seriesEnd(series),
    },
    generatedPassword,
  };
}

export async function writeNotifications(tx: Transaction, eventId: string, notifications: NotificationInput[]) {
  await tx.delete(eventNotifications).where(eq(eventNotifications.eventId, eventId));
  if (notifications.length) {
    await tx.insert(eventNotifications).values(notifications.map((n) => ({ eventId, type: n.type, time: n.time, timeType: n.timeType })));
  }
}
