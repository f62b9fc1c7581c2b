// The columns of an event from the wizard's input, for create and update alike.
import 'server-only';
import { and, eq } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import type { Transaction } from '@/lib/db/client';
import { rooms, type Event, type Room, type User } from '@/lib/db/schema';
import { findOwnRoom } from '@/lib/rooms/find';
import { meetingLink } from '@/lib/rooms/view';
import { generateMeetingPassword } from '@/lib/meeting/password';
import { roomPasswordColumns } from '@/lib/rooms/password';
import { buildRRule } from '@/lib/recurrence/build-rule';
import { seriesEnd } from '@/lib/recurrence/expand';
import type { CustomRepeat } from '@/lib/event-rules/repeat';
import { remindersFit, startsInPast } from '@/lib/event-rules/checks';
import { durationMinutes } from '@/lib/event-rules/limits';
import type { EventInput } from './schemas';

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
  if ((options.checkPast ?? true) && startsInPast(start.getTime(), options.now.getTime())) throw new ApiError('error_is_past_event', { field: 'from' });
  const minutes = durationMinutes(input.duration);
  const custom = input.repeatType === 'custom' ? ((input.repeatCustom ?? null) as CustomRepeat | null) : null;
  const end = custom ? custom.end : (input.repeatEnd ?? null);
  const rrule = buildRRule(input.repeatType, start, input.timezone, custom, end);
  if (end?.type === 'until' && rrule && new Date(`${end.date}T23:59:59Z`).getTime() < start.getTime() - 86_400_000) {
    throw new ApiError('incorrect_data', { field: custom ? 'repeatCustom' : 'repeatEnd' });
  }
  if (!rrule && !remindersFit(start.getTime(), input.notifications, options.now.getTime())) {
    throw new ApiError('notification_not_added', { field: 'notifications' });
  }
  const room = input.roomId
    ? await findOwnRoom(tx, owner.id, input.roomId)
    : input.roomId === null
      ? null
      : ((
          await tx
            .select()
            .from(rooms)
            .where(and(eq(rooms.ownerId, owner.id), eq(rooms.isDefault, true)))
        )[0] ?? null);

  const { passwordMode, generatedPassword } = await applyRoomPassword(tx, room, input, options.previous);
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
      passwordMode,
      roomId: room?.id ?? null,
      link: room ? meetingLink(room.meetingId) : null,
      endsAt: seriesEnd(series),
    },
    generatedPassword,
  };
}

/**
 * A meeting's password is its room's (docs/decisions.md "Room passwords and the call key"): the
 * wizard's custom or generated password becomes the room's, sent by the browser as a proof
 * (lib/meeting/room-password.ts). "Custom" with no new password keeps the room's current one;
 * "generated" on an edit keeps the one generated before. "None" leaves the room as it is — a
 * password is removed in the room's settings — so a meeting in a protected room is saved as
 * protected. Only an API client that sends neither password nor proof for "generated" gets one
 * generated here, answered once.
 */
async function applyRoomPassword(
  tx: Transaction,
  room: Room | null,
  input: EventInput,
  previous: Event | undefined,
): Promise<{ passwordMode: Event['passwordMode']; generatedPassword?: string }> {
  const roomHasPassword = room?.passwordHash != null;
  if (input.passwordMode === 'none') return { passwordMode: roomHasPassword ? 'custom' : 'none' };
  let generatedPassword: string | undefined;
  let password = input.password;
  if (input.passwordMode === 'generated' && !input.passwordProof) {
    const keep = previous?.passwordMode === 'generated' && roomHasPassword;
    if (!keep) password = generatedPassword = generateMeetingPassword();
  }
  const columns = await roomPasswordColumns({ password: password || undefined, passwordProof: input.passwordProof, passwordSalt: input.passwordSalt });
  if (!columns && !roomHasPassword) throw new ApiError('room_password_length', { field: 'password' });
  // A password protects a room's link; a meeting without a room has neither.
  if (!room) throw new ApiError('room_not_found', { field: 'roomId' });
  if (columns) await tx.update(rooms).set(columns).where(eq(rooms.id, room.id));
  return { passwordMode: input.passwordMode, generatedPassword };
}
