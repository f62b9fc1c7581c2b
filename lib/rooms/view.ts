import 'server-only';
import { randomBytes } from 'node:crypto';
import { config } from '@/lib/environment';
import type { Room } from '@/lib/db/schema';

/** The room's public meeting id: 128 random bits, so a link cannot be guessed. */
export function newMeetingId(): string {
  return randomBytes(16).toString('base64url');
}

/** SPEC point 3 "meeting link": {APP_URL}/now/{meetingId}. */
export function meetingLink(meetingId: string): string {
  return `${config.appUrl}/now/${meetingId}`;
}

/** A room as the API answers it: never its password hash. */
export function roomView(room: Room) {
  return {
    id: room.id,
    name: room.name,
    color: room.color,
    createdAt: room.createdAt.toISOString(),
    isDefault: room.isDefault,
    adminName: room.adminName,
    adminEmail: room.adminEmail,
    hasPassword: room.passwordHash !== null,
    mediaRoute: room.mediaRoute,
    meetingId: room.meetingId,
    link: meetingLink(room.meetingId),
  };
}
export type RoomView = ReturnType<typeof roomView>;
