// What the large-room bench's Node participants do as a page would (issue 46), and how the bench
// reads the call's messages back from the browsers: pure, so tests/unit/large-room-messages.test.ts
// checks it without a room.
import { LINKS_UP_TO } from '@/lib/meeting/client/call/route-pin';

export type Media = 'mesh' | 'sfu';

/**
 * Whether the call keeps its links at this size. On the mesh always: media goes over them. Through
 * the SFU a page keeps a data-only link to each peer while the call has at most LINKS_UP_TO
 * participants, ourselves included, and none above (route-pin.ts, call/link-pruning.ts).
 */
export function keepsLinks(media: Media, participants: number): boolean {
  return media === 'mesh' || participants <= LINKS_UP_TO;
}

/**
 * Whether a Node participant makes (or answers) a link to this peer now: as a page (keepsLinks)
 * towards the browsers; through the SFU none to another Node participant (nothing the bench reads
 * goes over those).
 */
export function linksWanted(media: Media, remoteIsBrowser: boolean, participants: number): boolean {
  return keepsLinks(media, participants) && (media === 'mesh' || remoteIsBrowser);
}

/**
 * The Node participants (by index) whose turn it is to send a chat at this tick: each one every
 * `everyTicks` ticks, the room spread over the ticks so the messages do not come in bursts.
 */
export function chatsDue(tick: number, count: number, everyTicks: number): number[] {
  const every = Math.max(1, Math.floor(everyTicks));
  const due: number[] = [];
  for (let index = tick % every; index < count; index += every) due.push(index);
  return due;
}

/** A chat as a page sends it (call/machine.ts 'send-chat'), numbered as the messenger numbers it (`_n`, call/messenger.ts). */
export function benchChat(from: string, number: number, at: number) {
  return { t: 'chat', id: `${from.slice(0, 24)}-${number}`, text: `bench chat ${number} from ${from}`, at, _n: number };
}

/** What the probe's sfuMessages() answers (lib/meeting/client/probe.ts), or null off the SFU. */
export interface SfuMessageCounts {
  sent: number;
  opened: number;
  dropped: number;
  drops: Record<string, number>;
  hearing: string[];
}

/** One browser's read (page-probes.mjs messagesInPage): its SFU messages, chats shown, connections. */
export interface PageMessages {
  sfu: SfuMessageCounts | null;
  chats: number;
  /** Its links to other participants (PeerLink): held, and connected. */
  links: number;
  linksConnected: number;
  /** Every RTCPeerConnection of the page not closed: the links and the SFU's two. */
  connections: number;
}

export interface MessageFigures {
  opened: number;
  dropped: number;
  /** Drop reasons that occurred, e.g. "auth 2, replay 1"; '' when none. */
  drops: string;
  chats: number;
  hearing: number;
}

/** What one browser opened, dropped and showed between two reads. */
export function messageFigures(before: PageMessages, after: PageMessages): MessageFigures {
  const sfu = (read: PageMessages) => read.sfu ?? { sent: 0, opened: 0, dropped: 0, drops: {}, hearing: [] };
  const [a, b] = [sfu(before), sfu(after)];
  const drops = Object.entries(b.drops)
    .map(([reason, count]) => [reason, count - (a.drops[reason] ?? 0)] as const)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ');
  return { opened: b.opened - a.opened, dropped: b.dropped - a.dropped, drops, chats: after.chats - before.chats, hearing: b.hearing.length };
}

/** "0" or "3 (auth 2, replay 1)". */
export function dropsText(figures: Pick<MessageFigures, 'dropped' | 'drops'>): string {
  return figures.dropped === 0 ? '0' : `${figures.dropped}${figures.drops ? ` (${figures.drops})` : ''}`;
}
