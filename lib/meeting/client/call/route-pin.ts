// When a call's media goes peer to peer (the mesh) and when through the SFU (issue 38). Every
// participant decides from what all of them see, the number in the call, so all move together
// without a coordinator: to the SFU from SFU_FROM participants, back to the mesh at MESH_UP_TO
// (the gap keeps one join or leave at the edge from moving everyone twice), unless the room or
// the address pins a route.
import type { RoomMediaRoute } from '@/lib/meeting/protocol';

/** From this many participants (ourselves included) media goes through the SFU. */
export const SFU_FROM = 6;
/** At this many or fewer it comes back to the mesh. */
export const MESH_UP_TO = 4;
/**
 * Through the SFU, a page keeps a connection (data only) to each other participant while the
 * call has at most this many, ourselves included: the call can fall back to the mesh at once if
 * Janus dies. Above it a page holds one connection, to the SFU, and opens one to a peer only for
 * a file (docs/meetings.md "Connections through the SFU").
 */
export const LINKS_UP_TO = 8;

/** `?linksUpTo=N` (tests and benches: a call of three without links), else LINKS_UP_TO. */
export function linksUpToOf(search: string): number {
  const upTo = Number(new URLSearchParams(search).get('linksUpTo'));
  return Number.isInteger(upTo) && upTo >= 1 && upTo <= 100 ? upTo : LINKS_UP_TO;
}

export type MediaRoute = 'mesh' | 'sfu';
/** A route pinned, or 'auto' from this many participants (and back to the mesh at meshUpTo). */
export type RoutePin = MediaRoute | { sfuFrom: number; meshUpTo: number };
export const AUTO: RoutePin = { sfuFrom: SFU_FROM, meshUpTo: MESH_UP_TO };

/**
 * The pin from the meeting page's address: `?media=sfu` or `?media=mesh`; `?sfuFrom=N` moves at N
 * and back below it (tests and benches: a move with 3 browsers); otherwise automatic.
 */
export function mediaRouteOf(search: string): RoutePin {
  const params = new URLSearchParams(search);
  const media = params.get('media');
  if (media === 'sfu' || media === 'mesh') return media;
  const from = Number(params.get('sfuFrom'));
  return Number.isInteger(from) && from >= 2 && from <= 100 ? { sfuFrom: from, meshUpTo: from - 1 } : AUTO;
}

/**
 * The pin a call starts with: the address's (`?media=` / `?sfuFrom=`, tests and benches) when it
 * names one, otherwise the room's "Calls in this room" setting (MeetingInfo.mediaRoute).
 */
export function routePin(search: string, room: RoomMediaRoute): RoutePin {
  const fromAddress = mediaRouteOf(search);
  // mediaRouteOf answers AUTO itself only when the address pins nothing.
  if (fromAddress !== AUTO) return fromAddress;
  return room === 'auto' ? AUTO : room;
}

export function chooseRoute(current: MediaRoute, participants: number, pin: RoutePin): MediaRoute {
  if (typeof pin === 'string') return pin;
  if (participants >= pin.sfuFrom) return 'sfu';
  if (participants <= pin.meshUpTo) return 'mesh';
  return current;
}

/**
 * The route a newcomer's call starts on, as the lobby sees it (its camera's default): through the
 * SFU only where this server has one (MeetingInfo.sfu) and the pin sends a call this size there.
 */
export function startingRoute(participants: number, pin: RoutePin, serverHasSfu: boolean): MediaRoute {
  return serverHasSfu ? chooseRoute('mesh', participants, pin) : 'mesh';
}
