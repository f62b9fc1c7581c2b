import 'server-only';
import { ApiError } from '@/lib/api/errors';
import { log } from '@/lib/log';
import { HEARTBEAT_MS, type ServerEvent } from '@/lib/meeting/protocol';
import { getHub } from './get-hub';
import type { Hub, RosterEntry } from './hub';
import { admit, announceDeparture, knock, liveRoster } from './roster';
import { findMeetingRoom } from './room';
import type { JoinClaims } from './token';

/** How long a dropped stream may take to come back before its participant counts as gone. */
export const RECONNECT_GRACE_MS = 3000;
const REPLAY_EVENTS = 200;

/**
 * A participant present on this instance: their subscription to the hub outlives each HTTP
 * stream (reloads, network blips) for the grace period, and keeps the recent events with ids
 * so a reconnecting stream can replay what it missed (Last-Event-ID).
 */
interface Presence {
  meetingId: string;
  participantId: string;
  seq: number;
  recent: { id: number; event: ServerEvent }[];
  write: ((id: number, event: ServerEvent) => void) | null;
  end: (() => void) | null;
  unsubscribe: () => Promise<void>;
  heartbeat: ReturnType<typeof setInterval> | undefined;
  lostTimer: ReturnType<typeof setTimeout> | undefined;
}

const holder = globalThis as typeof globalThis & { __enclavePresence?: Map<string, Presence> };
const presences: Map<string, Presence> = (holder.__enclavePresence ??= new Map<string, Presence>());
const keyOf = (meetingId: string, participantId: string) => `${meetingId}/${participantId}`;

const encoder = new TextEncoder();
function frame(id: number, event: ServerEvent) {
  return encoder.encode(`id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/** GET /api/meeting/{id}/signal: the participant's event stream. */
export async function openStream(claims: JoinClaims, lastEventId: string | null, signal: AbortSignal): Promise<Response> {
  const hub = await getHub();
  const { meetingId, participantId } = claims;
  if (await hub.isBanned(meetingId, participantId)) throw new ApiError('authentication_error', { status: 403 });
  const entry = (await liveRoster(hub, meetingId)).find((candidate) => candidate.id === participantId);
  // A seat that expired (the stream came too late, or the participant was gone too long) is lost:
  // the client goes back through the lobby and POST /join, where every rule is checked again.
  if (!entry) throw new ApiError('authentication_error');

  const key = keyOf(meetingId, participantId);
  let presence = presences.get(key);
  if (presence) {
    clearTimeout(presence.lostTimer);
    presence.end?.(); // a second stream with the same token replaces the first
  } else {
    presence = { meetingId, participantId, seq: 0, recent: [], write: null, end: null, unsubscribe: async () => undefined, heartbeat: undefined, lostTimer: undefined };
    presences.set(key, presence);
    const current = presence;
    current.unsubscribe = await hub.subscribe(meetingId, participantId, (event) => deliver(current, event));
  }
  const current = presence;

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const close = () => {
        if (!open) return;
        open = false;
        clearInterval(current.heartbeat);
        if (current.end === close) {
          current.write = null;
          current.end = null;
          scheduleLost(hub, current);
        }
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      current.write = (id, event) => {
        if (!open) return;
        controller.enqueue(frame(id, event));
        // The server ends the stream of a participant who is out of the meeting.
        if (event.type === 'removed' || event.type === 'denied') close();
      };
      current.end = close;
      signal.addEventListener('abort', close, { once: true });
      controller.enqueue(encoder.encode(`retry: 1000\n\n`));
      const after = Number(lastEventId);
      if (lastEventId && Number.isInteger(after)) {
        for (const { id, event } of current.recent) if (id > after) current.write(id, event);
      }
      clearInterval(current.heartbeat);
      current.heartbeat = setInterval(() => {
        if (!open) return;
        controller.enqueue(encoder.encode(`: ${Date.now()}\n\n`));
        void refresh(hub, current);
      }, HEARTBEAT_MS);
    },
    cancel() {
      current.end?.();
    },
  });

  // What the participant sees first: the call, or the door.
  if (!lastEventId || entry.state === 'joining') await enter(hub, meetingId, entry, claims);
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  });
}

async function enter(hub: Hub, meetingId: string, entry: RosterEntry, claims: JoinClaims) {
  if (entry.state === 'admitted') return admit(hub, meetingId, entry, 'welcome');
  if (entry.state === 'waiting') return knock(hub, meetingId, entry);
  // First stream after POST /join: the host and open meetings go in; others knock.
  const { room } = await findMeetingRoom(meetingId);
  const mustKnock = !claims.isHost && (room.askToJoin || (await hub.isLocked(meetingId)));
  return mustKnock ? knock(hub, meetingId, entry) : admit(hub, meetingId, entry, 'welcome');
}

function deliver(presence: Presence, event: ServerEvent) {
  presence.seq += 1;
  presence.recent.push({ id: presence.seq, event });
  if (presence.recent.length > REPLAY_EVENTS) presence.recent.shift();
  presence.write?.(presence.seq, event);
}

/** The instance holding a participant's stream keeps their roster entry fresh (Redis expiry). */
async function refresh(hub: Hub, presence: Presence) {
  try {
    const entry = await hub.get(presence.meetingId, presence.participantId);
    if (entry) await hub.put(presence.meetingId, { ...entry, seen: Date.now() });
  } catch (error) {
    log.warn('meeting: refresh failed', { error: String(error) });
  }
}

function scheduleLost(hub: Hub, presence: Presence) {
  clearTimeout(presence.lostTimer);
  presence.lostTimer = setTimeout(() => void forget(hub, presence, 'lost'), RECONNECT_GRACE_MS);
}

async function forget(hub: Hub, presence: Presence, reason: 'left' | 'lost' | 'removed') {
  const key = keyOf(presence.meetingId, presence.participantId);
  if (presences.get(key) !== presence) return;
  presences.delete(key);
  clearTimeout(presence.lostTimer);
  clearInterval(presence.heartbeat);
  await presence.unsubscribe();
  const entry = await hub.get(presence.meetingId, presence.participantId);
  if (entry && (await hub.remove(presence.meetingId, presence.participantId))) await announceDeparture(hub, presence.meetingId, entry, reason);
}

/** Ends this instance's hold on a participant (leave, removal): their stream closes now. */
export async function endPresence(meetingId: string, participantId: string) {
  const presence = presences.get(keyOf(meetingId, participantId));
  if (!presence) return;
  presences.delete(keyOf(meetingId, participantId));
  clearTimeout(presence.lostTimer);
  clearInterval(presence.heartbeat);
  presence.end?.();
  await presence.unsubscribe();
}
