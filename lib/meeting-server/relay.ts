import 'server-only';
import { ApiError } from '@/lib/errors';
import type { ClientMessage } from '@/lib/meeting/protocol.schema';
import { refuseSignal, countRelayed } from '@/lib/metrics/meeting';
import { revokeSfuAccess } from '@/lib/sfu/ticket';
import { takeToken } from './flood';
import { getHub } from './get-hub';
import { isStale, type Hub, type RosterEntry } from './hub';
import { admit, announceDeparture, broadcast, closeSfuRoomIfEmpty, liveRoster } from './roster';
import { endPresence } from './stream';
import type { JoinClaims } from './token';

/** POST /api/meeting/{id}/signal: one message from a participant, relayed or acted on. */
export async function handleMessage(claims: JoinClaims, message: ClientMessage): Promise<void> {
  const hub = await getHub();
  const { meetingId, participantId } = claims;
  if (!takeToken(`${meetingId}/${participantId}`)) throw refuseSignal('flood', new ApiError('too_many_attempts'));
  // Relaying a signal is the hot path (every ICE candidate): two keyed reads, not the whole roster.
  const sender = await hub.get(meetingId, participantId);
  if (!sender || isStale(sender)) throw refuseSignal('not_in_meeting', new ApiError('authentication_error'));

  if (message.type === 'signal' || message.type === 'signals') {
    if (sender.state !== 'admitted') throw refuseSignal('not_admitted', new ApiError('authentication_error', { status: 403 }));
    const target = message.to === sender.id ? null : await hub.get(meetingId, message.to);
    if (!target || isStale(target) || target.state !== 'admitted') throw refuseSignal('unknown_target', new ApiError('incorrect_data', { field: 'to' }));
    const envelopes = message.type === 'signal' ? [message.envelope] : message.envelopes;
    // A batch counts message by message against the flood limit (one token is taken above).
    for (let i = 1; i < envelopes.length; i += 1)
      if (!takeToken(`${meetingId}/${participantId}`)) throw refuseSignal('flood', new ApiError('too_many_attempts'));
    for (const envelope of envelopes) await hub.publish(meetingId, target.id, { type: 'signal', from: sender.id, envelope });
    countRelayed(envelopes.length);
    return;
  }

  const roster = await liveRoster(hub, meetingId);
  switch (message.type) {
    case 'leave':
      if (await hub.remove(meetingId, participantId)) {
        await announceDeparture(hub, meetingId, sender, 'left', roster);
        closeSfuRoomIfEmpty(hub, meetingId);
      }
      await endPresence(meetingId, participantId);
      return;
    case 'host':
      if (!sender.isHost || sender.state !== 'admitted') throw new ApiError('authentication_error', { status: 403 });
      return hostAction(hub, meetingId, sender, message, roster);
  }
}

async function hostAction(hub: Hub, meetingId: string, host: RosterEntry, message: Extract<ClientMessage, { type: 'host' }>, roster: RosterEntry[]) {
  if (message.action === 'lock' || message.action === 'unlock') {
    const locked = message.action === 'lock';
    await hub.setLocked(meetingId, locked);
    await broadcast(hub, meetingId, { type: 'locked', locked }, undefined, roster);
    return;
  }
  const target = message.target ? roster.find((entry) => entry.id === message.target) : undefined;
  if (!target || target.id === host.id) throw new ApiError('incorrect_data', { field: 'target' });
  switch (message.action) {
    case 'admit':
      if (target.state !== 'waiting') throw new ApiError('incorrect_data', { field: 'target' });
      await admit(hub, meetingId, target, 'admitted');
      await cancelKnock(hub, meetingId, target, roster, host.id);
      return;
    case 'deny':
      if (target.state !== 'waiting') throw new ApiError('incorrect_data', { field: 'target' });
      await hub.publish(meetingId, target.id, { type: 'denied' });
      if (await hub.remove(meetingId, target.id)) await cancelKnock(hub, meetingId, target, roster, host.id);
      return;
    case 'mute':
      await hub.publish(meetingId, target.id, { type: 'muted', from: host.id });
      return;
    case 'ask-unmute':
      await hub.publish(meetingId, target.id, { type: 'unmute-request', from: host.id });
      return;
    case 'remove':
      // Banned first, so the removed token cannot reconnect in between.
      await hub.ban(meetingId, target.id);
      await hub.publish(meetingId, target.id, { type: 'removed' });
      if (await hub.remove(meetingId, target.id)) {
        await announceDeparture(hub, meetingId, target, 'removed', roster);
        closeSfuRoomIfEmpty(hub, meetingId);
      }
      // Their room token leaves the SFU room's allowed list, their publisher is kicked (never throws).
      await revokeSfuAccess(meetingId, target.id);
      return;
  }
}

/** Other hosts stop seeing a knock that one host answered. */
async function cancelKnock(hub: Hub, meetingId: string, target: RosterEntry, roster: RosterEntry[], except: string) {
  const hosts = roster.filter((entry) => entry.isHost && entry.state === 'admitted' && entry.id !== except);
  await Promise.all(hosts.map((other) => hub.publish(meetingId, other.id, { type: 'knock-cancelled', participantId: target.id })));
}
