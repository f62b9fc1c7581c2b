import 'server-only';
import { JanusHttpError, type JanusHttpHandle } from './janus-http';

// The VideoRoom requests the app makes (https://janus.conf.meetecho.com/docs/videoroom.html),
// with string_ids on: room and participant ids are strings.

/** VideoRoom's error codes the app expects and steps over. */
export const VIDEOROOM_NO_SUCH_ROOM = 426;
export const VIDEOROOM_ROOM_EXISTS = 427;
export const VIDEOROOM_NO_SUCH_USER = 428;

/** SPEC allows 30 per meeting today; a room never takes more than this many publishers. */
export const MAX_PUBLISHERS = 100;

export interface RoomSettings {
  room: string;
  /** The room's secret: edits, the allowed list, kicks and destroy need it. */
  secret: string;
  /** The plugin's admin_key: only its holder may create rooms. */
  adminKey: string;
  /** The meeting's participant limit (capped at MAX_PUBLISHERS). */
  publishers: number;
  /** Room tokens let in from the start. */
  allowed: string[];
}

/**
 * Creates the meeting's room unless it exists: 'created' or 'existed'. Every stream in it must be
 * end-to-end encrypted (require_e2ee: Janus refuses an offer not marked e2ee), only
 * the holders of a token in `allowed` may join (and, through require_pvtid, subscribe), and the
 * room is in no public list.
 */
export async function ensureRoom(handle: JanusHttpHandle, settings: RoomSettings): Promise<'created' | 'existed'> {
  try {
    await handle.request({
      request: 'create',
      room: settings.room,
      admin_key: settings.adminKey,
      secret: settings.secret,
      permanent: false,
      is_private: true,
      require_e2ee: true,
      // A subscription names the private_id its participant's own publisher join got, which only
      // a room token in `allowed` obtains: no watching without being let in.
      require_pvtid: true,
      allowed: settings.allowed,
      publishers: Math.max(1, Math.min(MAX_PUBLISHERS, settings.publishers)),
      audiocodec: 'opus',
      videocodec: 'vp8',
      // Everyone hears of a newcomer, a subscriber-only one too: the browser matches them to the roster.
      notify_joining: true,
      // Nothing is recorded: it could only be ciphertext, and Janus has no business keeping it.
      record: false,
      lock_record: true,
    });
    return 'created';
  } catch (error) {
    if (error instanceof JanusHttpError && error.code === VIDEOROOM_ROOM_EXISTS) return 'existed';
    throw error;
  }
}

/** What a room on the node guarantees: the settings ensureRoom sets and the app relies on. */
export interface RoomGuarantees {
  requireE2ee: boolean;
  requirePvtid: boolean;
  isPrivate: boolean;
}

/** The room's guarantees as the node lists them (its admin_key lists private rooms too); null if absent. */
export async function roomGuarantees(handle: JanusHttpHandle, adminKey: string, room: string): Promise<RoomGuarantees | null> {
  const { list } = await handle.request<{ list?: Record<string, unknown>[] }>({ request: 'list', admin_key: adminKey });
  const entry = list?.find((candidate) => candidate.room === room);
  return entry ? { requireE2ee: entry.require_e2ee === true, requirePvtid: entry.require_pvtid === true, isPrivate: entry.is_private === true } : null;
}

/** Whether a room holds every guarantee ensureRoom gives one it creates. */
export const guarded = (guarantees: RoomGuarantees | null): boolean =>
  guarantees !== null && guarantees.requireE2ee && guarantees.requirePvtid && guarantees.isPrivate;

/** Adds or removes room tokens in the room's allowed list (idempotent: Janus keeps each once). */
export async function changeAllowed(handle: JanusHttpHandle, room: string, secret: string, action: 'add' | 'remove', tokens: string[]): Promise<string[]> {
  const answer = await handle.request<{ allowed?: string[] }>({ request: 'allowed', room, secret, action, allowed: tokens });
  return answer.allowed ?? [];
}

/** Kicks a participant's publisher out of the room; false if they were not in it. */
export async function kickParticipant(handle: JanusHttpHandle, room: string, secret: string, id: string): Promise<boolean> {
  try {
    await handle.request({ request: 'kick', room, secret, id });
    return true;
  } catch (error) {
    if (error instanceof JanusHttpError && error.code === VIDEOROOM_NO_SUCH_USER) return false;
    throw error;
  }
}

/** Destroys the room; false if it was not there. Everyone still in it is told and dropped. */
export async function destroyRoom(handle: JanusHttpHandle, room: string, secret: string): Promise<boolean> {
  try {
    await handle.request({ request: 'destroy', room, secret, permanent: false });
    return true;
  } catch (error) {
    if (error instanceof JanusHttpError && error.code === VIDEOROOM_NO_SUCH_ROOM) return false;
    throw error;
  }
}
