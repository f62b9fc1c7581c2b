// How a new meeting is protected (SPEC point 4), decided without React: which option a room
// starts on, and what "Next" sends and then shows. Tested in Node (new-meeting-security.test.ts).
import { ROOM_PASSWORD_MIN } from '@/lib/rooms/schemas';

export type Security = 'none' | 'custom' | 'generated';
export const SECURITY_OPTIONS: readonly Security[] = ['none', 'custom', 'generated'];

/** A room with a password starts on "custom" (an empty field keeps it); one without on "none". */
export function initialSecurity(room: { hasPassword: boolean } | undefined): Security {
  return room?.hasPassword ? 'custom' : 'none';
}

export type SecurityPlan =
  | { error: 'room_password_length' }
  | {
      /** For passwordChange(): a new password, null to remove the room's, undefined to keep it. */
      change: string | null | undefined;
      /** The password the "Meeting ready" step shows: only a new one (a kept one is not known here). */
      shown: string | null;
      hasPassword: boolean;
    };

/**
 * A room that has a password keeps it unless the person says, in plain words, that it changes for
 * everyone (issue 33: a generated password silently replaced the room's, and links already
 * shared stopped working). `roomPassword` is that answer; it matters only for such a room.
 */
export type RoomPasswordChoice = 'keep' | 'change';

export function planSecurity(room: { hasPassword: boolean }, security: Security, password: string, roomPassword: RoomPasswordChoice = 'keep'): SecurityPlan {
  const keep = room.hasPassword && security !== 'none' && roomPassword === 'keep';
  if (security !== 'none' && !keep && password.length < ROOM_PASSWORD_MIN) return { error: 'room_password_length' };
  return {
    change: security === 'none' ? (room.hasPassword ? null : undefined) : keep ? undefined : password,
    shown: security === 'none' || keep ? null : password,
    hasPassword: security !== 'none',
  };
}
