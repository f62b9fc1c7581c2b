import 'server-only';
import type { Participant, ServerEvent } from '@/lib/meeting/protocol';
import { closeSfuRoom } from '@/lib/sfu/ticket';
import { isStale, type Hub, type RosterEntry } from './hub';

export const toParticipant = (entry: RosterEntry): Participant => ({ id: entry.id, name: entry.name, isHost: entry.isHost });

/**
 * The live roster: entries whose instance stopped vouching for them (it died) are removed
 * here and announced as lost, by whichever instance notices first. A read otherwise: it never
 * closes the meeting's SFU room (its snapshot may miss someone joining at this moment), which
 * only a departure does (closeSfuRoomIfEmpty).
 */
export async function liveRoster(hub: Hub, meetingId: string): Promise<RosterEntry[]> {
  const entries = await hub.list(meetingId);
  const live: RosterEntry[] = [];
  for (const entry of entries) {
    if (!isStale(entry)) live.push(entry);
    else if (await hub.remove(meetingId, entry.id)) await announceDeparture(hub, meetingId, entry, 'lost', entries);
  }
  return live;
}

export async function admitted(hub: Hub, meetingId: string): Promise<RosterEntry[]> {
  return (await liveRoster(hub, meetingId)).filter((entry) => entry.state === 'admitted');
}

/** Sends an event to every admitted participant but one. */
export async function broadcast(hub: Hub, meetingId: string, event: ServerEvent, except?: string, roster?: RosterEntry[]) {
  const targets = (roster ?? (await liveRoster(hub, meetingId))).filter((entry) => entry.state === 'admitted' && entry.id !== except);
  await Promise.all(targets.map((entry) => hub.publish(meetingId, entry.id, event)));
}

/** Tells the others that someone is gone: a leave to those in the call, a cancelled knock to hosts. */
export async function announceDeparture(hub: Hub, meetingId: string, entry: RosterEntry, reason: 'left' | 'lost' | 'removed', roster?: RosterEntry[]) {
  const others = (roster ?? (await hub.list(meetingId))).filter((other) => other.id !== entry.id && !isStale(other));
  if (entry.state === 'admitted') {
    await broadcast(hub, meetingId, { type: 'leave', participantId: entry.id, reason }, entry.id, others);
  } else if (entry.state === 'waiting') {
    const hosts = others.filter((other) => other.isHost && other.state === 'admitted');
    await Promise.all(hosts.map((host) => hub.publish(meetingId, host.id, { type: 'knock-cancelled', participantId: entry.id })));
  }
}

/**
 * After someone left, was removed or lost: the last one out takes the meeting's SFU room (if it
 * had one) with them. The roster is read again here, not taken from a snapshot, so that someone
 * joining meanwhile keeps the room. In the background, never thrown.
 */
export function closeSfuRoomIfEmpty(hub: Hub, meetingId: string): void {
  void (async () => {
    const present = (await hub.list(meetingId)).filter((entry) => !isStale(entry));
    if (present.length === 0) await closeSfuRoom(meetingId);
  })().catch(() => undefined);
}

/** Moves a participant into the call: they get the list of those present, the others a join. */
export async function admit(hub: Hub, meetingId: string, entry: RosterEntry, first: 'welcome' | 'admitted') {
  const next: RosterEntry = { ...entry, state: 'admitted', seen: Date.now() };
  await hub.put(meetingId, next);
  const roster = await liveRoster(hub, meetingId);
  const present = roster.filter((other) => other.state === 'admitted' && other.id !== entry.id).map(toParticipant);
  const locked = await hub.isLocked(meetingId);
  await hub.publish(
    meetingId,
    entry.id,
    first === 'welcome' ? { type: 'welcome', self: toParticipant(next), participants: present, locked } : { type: 'admitted', participants: present, locked },
  );
  const join: ServerEvent = { type: 'join', participant: toParticipant(next), ...(next.keyRequest ? { keyRequest: next.keyRequest } : {}) };
  await broadcast(hub, meetingId, join, entry.id, roster);
  // A host who arrives hears those already waiting at the door.
  if (next.isHost) {
    const waiting = roster.filter((other) => other.state === 'waiting');
    for (const other of waiting) await hub.publish(meetingId, next.id, { type: 'knock', participant: toParticipant(other) });
  }
  return next;
}

/** A participant who must wait: they are told so, and every host present hears the knock. */
export async function knock(hub: Hub, meetingId: string, entry: RosterEntry) {
  const next: RosterEntry = { ...entry, state: 'waiting', seen: Date.now() };
  await hub.put(meetingId, next);
  await hub.publish(meetingId, entry.id, { type: 'waiting', self: toParticipant(next) });
  const hosts = (await admitted(hub, meetingId)).filter((other) => other.isHost);
  await Promise.all(hosts.map((host) => hub.publish(meetingId, host.id, { type: 'knock', participant: toParticipant(next) })));
  return next;
}

/**
 * Tells a reconnecting participant where they stand (welcome or waiting) without announcing
 * them to anyone: the others still know them. Used when their missed events cannot be replayed.
 */
export async function greet(hub: Hub, meetingId: string, entry: RosterEntry) {
  if (entry.state === 'waiting') return hub.publish(meetingId, entry.id, { type: 'waiting', self: toParticipant(entry) });
  const present = (await admitted(hub, meetingId)).filter((other) => other.id !== entry.id).map(toParticipant);
  await hub.publish(meetingId, entry.id, { type: 'welcome', self: toParticipant(entry), participants: present, locked: await hub.isLocked(meetingId) });
}
