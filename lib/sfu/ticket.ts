import 'server-only';
import { config } from '@/lib/environment';
import { ApiError } from '@/lib/errors';
import { describeError, log } from '@/lib/log';
import { processSlot } from '@/lib/process-slot';
import type { SfuTicket } from '@/lib/meeting/protocol';
import { JanusHttpError, type JanusHttpHandle } from './janus-http';
import { withKeptHandle } from './janus-kept';
import { sfuConfigured, sfuNodes, type SfuNode } from './nodes';
import { placements } from './store';
import { janusToken, sfuRoomId, sfuRoomSecret, sfuRoomToken, VIDEOROOM_PLUGIN } from './tokens';
import { changeAllowed, destroyRoom, ensureRoom, guarded, kickParticipant, roomGuarantees, VIDEOROOM_NO_SUCH_ROOM, type RoomSettings } from './videoroom';

/**
 * How long a ticket's token opens Janus requests. Janus checks the token on every request,
 * keep-alives included: a browser asks for a new ticket before this runs out and sends its token
 * from then on (the session, its handles and its media carry on). A browser that does not loses
 * its session after Janus's session_timeout (60 s) without an accepted keep-alive.
 */
export const TICKET_SECONDS = 10 * 60;
/** The app's own tokens: one operation's requests. */
const APP_TOKEN_SECONDS = 60;
/**
 * A kick or a room's end waits this long for Janus, all its requests together (the kept session
 * if it must be made, then one or two requests), no more: they must not hold up the call.
 */
export const BEST_EFFORT_TIMEOUT_MS = 2_000;

interface Room {
  node: SfuNode;
  room: string;
  secret: string;
}

function sharedSecret(): string {
  if (!config.sfuSecret || !sfuConfigured()) throw new ApiError('room_not_found');
  return config.sfuSecret;
}

function roomOn(node: SfuNode, secret: string, meetingId: string): Room {
  const room = sfuRoomId(secret, meetingId);
  return { node, room, secret: sfuRoomSecret(secret, room) };
}

/** `work` on the app's kept VideoRoom handle on the room's node (lib/sfu/janus-kept.ts); `timeoutMs` bounds all of it. */
const videoRoom = <T>(room: Room, secret: string, work: (handle: JanusHttpHandle) => Promise<T>, timeoutMs?: number) =>
  withKeptHandle(
    room.node.apiUrl,
    VIDEOROOM_PLUGIN,
    { key: secret, make: () => janusToken(secret, Date.now() + APP_TOKEN_SECONDS * 1000) },
    { timeoutMs, signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined },
    work,
  );

/**
 * POST /api/meeting/{id}/sfu for an admitted participant: the meeting's room on its node (placed
 * and created on first use), the participant's room token in its allowed list, and a token that
 * opens Janus for TICKET_SECONDS. room_not_found (404) without an SFU. A node that fails (does not
 * answer, or answers with a refusal) loses the meeting's placement and the next node is tried, in
 * this request; service_unavailable once every node has failed (issue 45: a refusing node kept its
 * meetings, and calls on it never reached a healthy one).
 */
export async function sfuTicketFor(meetingId: string, participantId: string, options: { publishers: number }, now = Date.now()): Promise<SfuTicket> {
  const secret = sharedSecret();
  const store = await placements();
  const failed = new Set<string>();
  for (let nodes = sfuNodes(); nodes.length > 0; nodes = nodes.filter((node) => !failed.has(node.publicUrl))) {
    const { node: name } = await store.place(
      meetingId,
      nodes.map((node) => node.publicUrl),
      now,
    );
    const room = roomOn(
      nodes.find((node) => node.publicUrl === name)!,
      secret,
      meetingId,
    );
    const roomToken = sfuRoomToken(secret, room.room, participantId);
    try {
      await videoRoom(room, secret, async (handle) => {
        const settings = { room: room.room, secret: room.secret, adminKey: secret, publishers: options.publishers, allowed: [roomToken] };
        // The usual ticket: a room this session made or checked, one request.
        if (await allowedInVerifiedRoom(handle, room, roomToken)) return;
        const state = await ensureRoom(handle, settings);
        if (state === 'existed') {
          await checkGuarded(handle, room, settings);
          await changeAllowed(handle, room.room, room.secret, 'add', [roomToken]);
        } else markVerified(handle, room);
      });
      const expiresAt = now + TICKET_SECONDS * 1000;
      return { url: name, room: room.room, token: janusToken(secret, expiresAt), roomToken, expiresAt };
    } catch (error) {
      log.warn('sfu: no room for a ticket on this node', { node: name, ...describeError(error) });
      // Only this node's placement: another participant's request may have moved the meeting already.
      await store.release(meetingId, name);
      failed.add(name);
    }
  }
  throw new ApiError('service_unavailable');
}

/**
 * Rooms the app's session on their node created or checked: each holds require_e2ee,
 * require_pvtid and is_private. Only the admin_key's holder makes rooms, but a room of the same
 * name made otherwise (by hand, by an older release, from a static room in the plugin's config)
 * would forward clear media to anyone the app lets in: a room that existed is checked before the
 * app hands out its tokens. Keyed by the session's handle: a Janus that restarted (and may have
 * loaded a static room of that name) knows none of the app's sessions, so its rooms are checked again.
 * One set per process (lib/process-slot.ts): the build inlines this module in the ticket route's
 * chunk and in the meeting stream's, which ends rooms (closeSfuRoom).
 */
const verified = processSlot<Set<string>>('sfu.verified-rooms').getOrCreate(() => new Set());
const VERIFIED_MAX = 10_000;
const verifiedKey = (handle: JanusHttpHandle, room: Room) => `${handle.url}\0${room.room}`;

function markVerified(handle: JanusHttpHandle, room: Room) {
  if (verified.size >= VERIFIED_MAX) verified.clear();
  verified.add(verifiedKey(handle, room));
}

/** Adds the token to a room this session verified: false if it has none such, or the room went. */
async function allowedInVerifiedRoom(handle: JanusHttpHandle, room: Room, roomToken: string): Promise<boolean> {
  const key = verifiedKey(handle, room);
  if (!verified.has(key)) return false;
  try {
    await changeAllowed(handle, room.room, room.secret, 'add', [roomToken]);
    return true;
  } catch (error) {
    if (!(error instanceof JanusHttpError && error.code === VIDEOROOM_NO_SUCH_ROOM)) throw error;
    verified.delete(key); // destroyed meanwhile (its meeting emptied): made again
    return false;
  }
}

/** A room that lacks a guarantee is destroyed (with the room's secret) and made again, or no ticket is given. */
async function checkGuarded(handle: JanusHttpHandle, room: Room, settings: RoomSettings) {
  if (verified.has(verifiedKey(handle, room))) return;
  if (!guarded(await roomGuarantees(handle, settings.adminKey, room.room))) {
    log.error('sfu: a meeting room without end-to-end encryption required; replacing it', { node: room.node.publicUrl });
    // Another secret (not the app's room) makes this throw: no ticket, rather than a clear room.
    await destroyRoom(handle, room.room, room.secret);
    if ((await ensureRoom(handle, settings)) !== 'created' || !guarded(await roomGuarantees(handle, settings.adminKey, room.room)))
      throw new Error('sfu: the meeting room could not be made with end-to-end encryption required');
  }
  markVerified(handle, room);
}

/** Where the meeting's room is, if it has one and an SFU is configured. */
async function placedRoom(meetingId: string): Promise<{ room: Room; secret: string } | null> {
  if (!config.sfuSecret || !sfuConfigured()) return null;
  const name = await (await placements()).get(meetingId);
  const node = sfuNodes().find((candidate) => candidate.publicUrl === name);
  return node ? { room: roomOn(node, config.sfuSecret, meetingId), secret: config.sfuSecret } : null;
}

/**
 * The host removed a participant: their room token leaves the allowed list (no new join with it)
 * and their publisher is kicked from the room. Best effort: logged, never thrown — the removal
 * itself (ban, key rotation) does not depend on Janus.
 */
export async function revokeSfuAccess(meetingId: string, participantId: string): Promise<void> {
  try {
    const placed = await placedRoom(meetingId);
    if (!placed) return;
    const { room, secret } = placed;
    await videoRoom(
      room,
      secret,
      async (handle) => {
        await changeAllowed(handle, room.room, room.secret, 'remove', [sfuRoomToken(secret, room.room, participantId)]);
        await kickParticipant(handle, room.room, room.secret, participantId);
      },
      BEST_EFFORT_TIMEOUT_MS,
    );
  } catch (error) {
    if (error instanceof JanusHttpError && error.code === VIDEOROOM_NO_SUCH_ROOM) return; // the room is gone already
    log.warn('sfu: a removed participant kept their room access', describeError(error));
  }
}

/**
 * The meeting emptied: its placement is forgotten and its room destroyed. Best effort: a room
 * left behind holds nobody (every token in it belongs to someone who left) and goes with Janus's
 * next restart; a later ticket for the meeting recreates it.
 */
export async function closeSfuRoom(meetingId: string): Promise<void> {
  try {
    const placed = await placedRoom(meetingId);
    if (!placed) return;
    await (await placements()).release(meetingId);
    const { room, secret } = placed;
    await videoRoom(
      room,
      secret,
      (handle) => {
        verified.delete(verifiedKey(handle, room));
        return destroyRoom(handle, room.room, room.secret);
      },
      BEST_EFFORT_TIMEOUT_MS,
    );
  } catch (error) {
    log.warn('sfu: a meeting room was not destroyed', describeError(error));
  }
}
