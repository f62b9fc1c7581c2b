import 'server-only';
import { ApiError } from '@/lib/errors';
import { log } from '@/lib/log';
import { processSlot } from '@/lib/process-slot';
import { HEARTBEAT_MS, type ServerEvent } from '@/lib/meeting/protocol';
import { getHub, instanceId } from './get-hub';
import { KEPT_EVENTS, REFRESH_MS, type Hub, type NumberedEvent, type RosterEntry } from './hub';
import { admit, announceDeparture, closeSfuRoomIfEmpty, greet, knock, liveRoster } from './roster';
import { findMeetingRoom } from './room';
import type { JoinClaims } from './token';

/** How long a dropped stream may take to come back before its participant counts as gone. */
export const RECONNECT_GRACE_MS = 3000;
/** How soon a browser whose stream ended because the server stopped tries again. */
export const SHUTDOWN_RETRY_MS = 500;

/**
 * A participant held by this instance: their subscription to the hub outlives each HTTP
 * stream (reloads, network blips) for the grace period. The hub numbers and keeps their recent
 * events, so a stream that reconnects, here or to another instance, is sent what it missed
 * (Last-Event-ID) rather than a fresh welcome.
 */
interface Presence {
  meetingId: string;
  participantId: string;
  /** The id of the last event written to a stream: an event is written once, in order. */
  lastWritten: number;
  /** Events that came while no stream was attached (between a reconnection's replay and its stream). */
  pending: NumberedEvent[];
  write: ((id: number, event: ServerEvent) => void) | null;
  end: (() => void) | null;
  /** Ends the stream telling the browser to reconnect soon: the server is stopping. */
  endForShutdown: (() => void) | null;
  unsubscribe: () => Promise<void>;
  refresher: ReturnType<typeof setInterval> | undefined;
  lostTimer: ReturnType<typeof setTimeout> | undefined;
}

// One per process: the route and its fast path (server/server.mjs) are bundled apart.
const presences = processSlot<Map<string, Presence>>('meeting.presence').getOrCreate(() => new Map());
const keyOf = (meetingId: string, participantId: string) => `${meetingId}/${participantId}`;

const encoder = new TextEncoder();
function frame(id: number, event: ServerEvent) {
  return encoder.encode(`id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/**
 * GET /api/meeting/{id}/signal: the participant's event stream. `joined`: the answer of a
 * POST /join that asked for the stream (app/api/meeting/[id]/join), sent first as a `joined` event.
 */
export async function openStream(claims: JoinClaims, lastEventId: string | null, signal: AbortSignal, joined?: object): Promise<Response> {
  const hub = await getHub();
  const { meetingId, participantId } = claims;
  const found = (await liveRoster(hub, meetingId)).find((candidate) => candidate.id === participantId);
  // A seat that expired (the stream came too late, or the participant was gone too long) is lost:
  // the client goes back through the lobby and POST /join, where every rule is checked again.
  if (!found) throw new ApiError('authentication_error');
  // This instance holds the stream from now on; one that held it before lets go at its next refresh.
  const entry: RosterEntry = { ...found, instance: instanceId(), seen: Date.now() };
  await hub.put(meetingId, entry);

  let presence = presences.get(keyOf(meetingId, participantId));
  if (presence) {
    presence.end?.(); // a second stream with the same token replaces the first…
    clearTimeout(presence.lostTimer); // …and is no departure
  } else {
    presence = await hold(hub, meetingId, participantId);
  }

  const after = lastEventId !== null && /^\d{1,16}$/.test(lastEventId) ? Number(lastEventId) : null;
  // Read after subscribing: an event published meanwhile is in both, and written once.
  const missed = after !== null && entry.state !== 'joining' ? await hub.recent(meetingId, participantId, after) : null;
  const stream = attach(hub, presence, signal, missed, joined);

  // What the participant sees first: the call, or the door. A reconnection whose missed events
  // are gone (too many, or an id the hub never gave) gets a fresh welcome, without announcing them again.
  if (entry.state === 'joining' || after === null) await enter(hub, meetingId, entry, claims);
  else if (!missed) await greet(hub, meetingId, entry);
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
    },
  });
}

/** Subscribes this instance to a participant's events, and keeps their roster entry fresh. */
async function hold(hub: Hub, meetingId: string, participantId: string): Promise<Presence> {
  const presence: Presence = {
    meetingId,
    participantId,
    lastWritten: 0,
    pending: [],
    write: null,
    end: null,
    endForShutdown: null,
    unsubscribe: async () => undefined,
    refresher: undefined,
    lostTimer: undefined,
  };
  presences.set(keyOf(meetingId, participantId), presence);
  try {
    presence.unsubscribe = await hub.subscribe(meetingId, participantId, (event, id) => deliver(presence, event, id));
  } catch (error) {
    presences.delete(keyOf(meetingId, participantId));
    throw error;
  }
  presence.refresher = setInterval(() => void refresh(hub, presence), REFRESH_MS);
  presence.refresher.unref?.();
  return presence;
}

/**
 * One HTTP stream of a presence: events (first those it missed, when `missed` says which), a
 * heartbeat, and the grace timer when it drops.
 */
function attach(hub: Hub, presence: Presence, signal: AbortSignal, missed: NumberedEvent[] | null, joined?: object) {
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const close = () => {
        if (!open) return;
        open = false;
        clearInterval(heartbeat);
        if (presence.end === close) {
          presence.write = null;
          presence.end = null;
          presence.endForShutdown = null;
          scheduleLost(hub, presence);
        }
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      presence.write = (id, event) => {
        if (!open || id <= presence.lastWritten) return;
        presence.lastWritten = id;
        controller.enqueue(frame(id, event));
        // The server ends the stream of a participant who is out of the meeting.
        if (event.type === 'removed' || event.type === 'denied') close();
      };
      presence.end = close;
      presence.endForShutdown = () => {
        if (open) controller.enqueue(encoder.encode(`retry: ${SHUTDOWN_RETRY_MS}\n\n`));
        close();
      };
      signal.addEventListener('abort', close, { once: true });
      controller.enqueue(encoder.encode(`retry: 1000\n\n`));
      // No id: a reconnection's Last-Event-ID names the events after it.
      if (joined) controller.enqueue(encoder.encode(`event: joined\ndata: ${JSON.stringify(joined)}\n\n`));
      // Without a replay the stream starts from the welcome published next: earlier events are not its.
      // With one, it starts after Last-Event-ID, even if an earlier stream wrote more before it dropped.
      const pending = presence.pending;
      presence.pending = [];
      presence.lastWritten = 0;
      if (missed) for (const { id, event } of [...missed, ...pending]) presence.write(id, event);
      // A comment line now and then keeps proxies from closing an idle stream.
      heartbeat = setInterval(() => {
        if (open) controller.enqueue(encoder.encode(`: ${Date.now()}\n\n`));
      }, HEARTBEAT_MS);
      heartbeat.unref?.();
    },
    cancel() {
      clearInterval(heartbeat);
      presence.end?.();
    },
  });
}

async function enter(hub: Hub, meetingId: string, entry: RosterEntry, claims: JoinClaims) {
  if (entry.state === 'admitted') return admit(hub, meetingId, entry, 'welcome');
  if (entry.state === 'waiting') return knock(hub, meetingId, entry);
  // First stream after POST /join: the host and open meetings go in; others knock. The room's
  // setting comes with the seat (no database query between the click and the welcome).
  const asksToJoin = entry.roomAsksToJoin ?? (await findMeetingRoom(meetingId)).room.askToJoin;
  const mustKnock = !claims.isHost && (asksToJoin || (await hub.isLocked(meetingId)));
  return mustKnock ? knock(hub, meetingId, entry) : admit(hub, meetingId, entry, 'welcome');
}

function deliver(presence: Presence, event: ServerEvent, id: number) {
  if (presence.write) return presence.write(id, event);
  // No stream now: a reconnection reads the hub's kept events; these cover the moment between that read and its stream.
  presence.pending.push({ id, event });
  if (presence.pending.length > KEPT_EVENTS) presence.pending.shift();
}

/**
 * Every REFRESH_MS: vouch for the participant (Redis entries not refreshed for SEEN_TTL_MS count
 * as lost), let go if another instance took the stream over or the participant was removed, and
 * sweep the meeting's roster so that participants of a dead instance vanish within seconds.
 */
async function refresh(hub: Hub, presence: Presence) {
  try {
    const state = await hub.touch(presence.meetingId, presence.participantId, instanceId());
    if (state !== 'held') return await release(presence);
    await liveRoster(hub, presence.meetingId);
  } catch (error) {
    log.warn('meeting: refresh failed', { error: String(error) });
  }
}

function scheduleLost(hub: Hub, presence: Presence) {
  clearTimeout(presence.lostTimer);
  presence.lostTimer = setTimeout(() => void forget(hub, presence), RECONNECT_GRACE_MS);
  presence.lostTimer.unref?.();
}

/** The grace period ended without a reconnection: the participant is gone. */
async function forget(hub: Hub, presence: Presence) {
  if (presences.get(keyOf(presence.meetingId, presence.participantId)) !== presence) return;
  await release(presence);
  try {
    const entry = await hub.get(presence.meetingId, presence.participantId);
    // Only while this instance still holds them: a stream that moved to another instance lives on.
    if (entry && (await hub.remove(presence.meetingId, presence.participantId, instanceId()))) {
      await announceDeparture(hub, presence.meetingId, entry, 'lost');
      closeSfuRoomIfEmpty(hub, presence.meetingId);
    }
  } catch (error) {
    log.warn('meeting: departure failed', { error: String(error) });
  }
}

/** Drops this instance's hold on a participant, leaving the roster alone: their stream ends now. */
async function release(presence: Presence) {
  const key = keyOf(presence.meetingId, presence.participantId);
  if (presences.get(key) === presence) presences.delete(key);
  clearTimeout(presence.lostTimer);
  clearInterval(presence.refresher);
  const end = presence.end;
  presence.end = null; // no grace period: this is no drop
  presence.write = null;
  end?.();
  await presence.unsubscribe();
}

/** Ends this instance's hold on a participant (leave): their stream closes now. */
export async function endPresence(meetingId: string, participantId: string) {
  const presence = presences.get(keyOf(meetingId, participantId));
  if (presence) await release(presence);
}

/** Lets go of every participant held here, announcing nothing (shutdown, tests). */
export async function releaseAll() {
  await Promise.all([...presences.values()].map((presence) => release(presence)));
}

/**
 * The server is stopping (lib/server-shutdown.ts): every stream ends with a short retry hint, so
 * that browsers reconnect at once — to another instance behind the proxy, or to this one
 * restarted — and nobody is announced as gone: with Redis their seats stay until they come back
 * or SEEN_TTL_MS passes, and with the in-memory hub the meeting ends with the process anyway.
 */
export function endStreamsForShutdown(): number {
  let ended = 0;
  for (const presence of presences.values()) {
    clearInterval(presence.refresher);
    if (presence.endForShutdown) {
      presence.endForShutdown();
      ended += 1;
    }
    clearTimeout(presence.lostTimer);
  }
  presences.clear();
  return ended;
}
