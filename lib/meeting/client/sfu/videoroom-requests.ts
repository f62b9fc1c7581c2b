// The Janus VideoRoom requests a participant sends (issue 38), and how Janus describes the
// streams it forwards: one place for the browser (sfu-media.ts) and the large-room bench's Node
// participants (bench/large-room/node-sfu.ts).
import type { SfuTicket } from '@/lib/meeting/protocol';

/** One stream of a subscription, as Janus describes it. */
export interface SubscribedStream {
  mid: string;
  type: string;
  feed_id?: string;
  /** What its publisher named it: our slot ('audio', 'camera', 'screen'). */
  feed_description?: string;
}

/** Joins the room as a publisher under the participant's own id, with its room token. */
export function publisherJoin(ticket: SfuTicket, participantId: string) {
  return { request: 'join', ptype: 'publisher', room: ticket.room, id: participantId, token: ticket.roomToken };
}

/** A feed whole, or one of its streams by the publisher's mid (the bench's Node participants take no video). */
export type FeedChoice = string | { feed: string; mid: string };

/**
 * Receives these feeds: the first time a subscriber join (with the private id our publisher join
 * got: the room requires it), later an addition to the same subscription.
 */
export function subscriptionRequest(ticket: SfuTicket, feeds: FeedChoice[], privateId: number | null, first: boolean) {
  const streams = feeds.map((choice) => (typeof choice === 'string' ? { feed: choice } : choice));
  if (!first) return { request: 'subscribe', streams };
  return { request: 'join', ptype: 'subscriber', room: ticket.room, streams, token: ticket.roomToken, ...(privateId !== null && { private_id: privateId }) };
}

/** Stops receiving these feeds (another breakout room's): Janus answers with a new offer. */
export function unsubscriptionRequest(feeds: string[]) {
  return { request: 'unsubscribe', streams: feeds.map((feed) => ({ feed })) };
}

/** The streams of Janus's latest description of a subscription, by mid. */
export function streamsOf(data: Record<string, unknown> | undefined): Map<string, SubscribedStream> {
  const list = Array.isArray(data?.streams) ? (data.streams as SubscribedStream[]) : [];
  return new Map(list.map((stream) => [String(stream.mid), stream]));
}

/** The publishers a VideoRoom answer or event lists (who is there, who came), ourselves excluded. */
export function publishersIn(list: unknown, selfId: string): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((publisher) => (publisher as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string' && id !== selfId);
}

/** The publisher a VideoRoom event says left or stopped publishing, if it says so. */
export function departedPublisher(data: Record<string, unknown>): string | null {
  const gone = data.leaving ?? data.unpublished;
  return typeof gone === 'string' ? gone : null;
}
