/** @jest-environment node */
// The large-room bench's Node participants and the call's messages through the SFU (issue 46;
// bench/large-room/crowd-policy.ts, node-messages.ts): they keep links as a page does (none above
// LINKS_UP_TO through the SFU: node-links.ts lets them go with the app's LinkPruning), send their
// chats spread over the seconds in the page's own format, greet and are greeted through a stand-in
// for Janus's relay like a page, and the bench reads each browser's opened and dropped messages
// between two moments.
import { LINKS_UP_TO } from '@/lib/meeting/client/call/route-pin';
import { LINK_OFF } from '@/lib/meeting/client/call/link-pruning';
import { parsePeerMessage } from '@/lib/meeting/client/call/peer-messages';
import { deriveDirectKey } from '@/lib/meeting/e2ee/sender-data';
import { benchChat, chatsDue, dropsText, keepsLinks, linksWanted, messageFigures, type PageMessages } from '@/bench/large-room/crowd-policy';
import { NodeMessages } from '@/bench/large-room/node-messages';
import { sfuRoom } from '../support/sfu-relay';

describe('links of a Node participant', () => {
  it('on the mesh: to everyone, whatever the size', () => {
    expect(linksWanted('mesh', true, 50)).toBe(true);
    expect(linksWanted('mesh', false, 50)).toBe(true);
  });

  it(`a call through the SFU keeps its links up to ${LINKS_UP_TO} participants, as a page's (above, they go by agreement)`, () => {
    expect(keepsLinks('sfu', LINKS_UP_TO)).toBe(true);
    expect(keepsLinks('sfu', LINKS_UP_TO + 1)).toBe(false);
    expect(keepsLinks('mesh', 50)).toBe(true);
  });

  it(`through the SFU: to the browsers up to ${LINKS_UP_TO} participants, to nobody above; never to another Node participant`, () => {
    expect(linksWanted('sfu', true, LINKS_UP_TO)).toBe(true);
    expect(linksWanted('sfu', true, LINKS_UP_TO + 1)).toBe(false);
    expect(linksWanted('sfu', true, 50)).toBe(false);
    expect(linksWanted('sfu', false, 3)).toBe(false);
  });
});

describe('the chat schedule', () => {
  it('gives each participant one turn per period, the room spread evenly over its ticks', () => {
    const count = 48;
    const every = 5;
    const turns = Array.from({ length: every }, (_, tick) => chatsDue(tick, count, every));
    expect(turns.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(Math.max(...turns.map((due) => due.length)) - Math.min(...turns.map((due) => due.length))).toBeLessThanOrEqual(1);
    // The next period repeats the first.
    expect(chatsDue(every + 2, count, every)).toEqual(turns[2]);
  });

  it('sends everyone at every tick when the period is one tick (or less)', () => {
    expect(chatsDue(7, 3, 1)).toEqual([0, 1, 2]);
    expect(chatsDue(7, 3, 0)).toEqual([0, 1, 2]);
  });

  it('makes chats a page accepts (call/peer-messages.ts), even with a long participant id', () => {
    const chat = benchChat('x'.repeat(200), 12, 1_700_000_000_000);
    expect(parsePeerMessage(chat)).toEqual({ t: 'chat', id: chat.id, text: chat.text, at: 1_700_000_000_000 });
  });
});

describe("a browser's messages between two reads", () => {
  const read = (opened: number, drops: Record<string, number>, chats: number, hearing: string[] = []): PageMessages => ({
    sfu: { sent: 0, opened, dropped: Object.values(drops).reduce((a, b) => a + b, 0), drops, hearing },
    chats,
    links: 0,
    linksConnected: 0,
    connections: 2,
  });

  it('counts what was opened, dropped (by reason) and shown in the window only', () => {
    const figures = messageFigures(read(10, { auth: 1, replay: 0 }, 4), read(25, { auth: 3, replay: 1 }, 17, ['a', 'b']));
    expect(figures).toEqual({ opened: 15, dropped: 3, drops: 'auth 2, replay 1', chats: 13, hearing: 2 });
    expect(dropsText(figures)).toBe('3 (auth 2, replay 1)');
  });

  it('reads a page off the SFU as nothing opened', () => {
    const off: PageMessages = { sfu: null, chats: 0, links: 3, linksConnected: 3, connections: 3 };
    expect(messageFigures(off, off)).toEqual({ opened: 0, dropped: 0, drops: '', chats: 0, hearing: 0 });
    expect(dropsText(messageFigures(off, off))).toBe('0');
  });
});

describe('a Node participant through a stand-in for Janus', () => {
  it('greets and is greeted like a page, and its chat opens in the page as a chat; the page’s opens in it', async () => {
    const made = await sfuRoom(['page', 'node']);
    const { relay, data, delivered, subscribe, publish, pairSecret, rings } = made;
    const heard: string[] = [];
    const linkOff: string[] = [];
    const node = new NodeMessages({
      selfId: 'node',
      meetingId: 'r',
      ring: () => rings.node!,
      directKeys: async (peerId) => {
        const pair = pairSecret('node', peerId);
        return pair ? { send: await deriveDirectKey(pair, 'node', peerId), receive: await deriveDirectKey(pair, peerId, 'node') } : null;
      },
      greetEveryMs: 20,
      onHeard: (peerId) => heard.push(peerId),
      onLinkOff: (peerId) => linkOff.push(peerId),
    });
    try {
      // The Node participant's own data side replaces the stand-in page's of the same id.
      relay.receivers.set('node', (bytes) => node.data.receive(bytes));
      relay.publishing.add('node');
      node.attach((bytes) => relay.send('node', bytes));
      publish('page');
      subscribe('page', 'node');
      relay.subscribe('node', 'page');
      node.data.opened(['page']);
      await relay.settle();
      expect(data.page!.hearing()).toEqual(['node']);
      expect(node.data.hearing()).toEqual(['page']);

      expect(node.chat(1234)).toBe(true);
      const hello = { t: 'chat', id: 'p1', text: 'hello', at: 1 };
      data.page!.broadcast(hello, ['node']);
      await relay.settle();
      const chats = delivered.page!.map(({ message }) => parsePeerMessage(message)).filter((message) => message?.t === 'chat');
      expect(chats).toEqual([{ t: 'chat', id: 'node-0', text: 'bench chat 0 from node', at: 1234 }]);
      expect(node.summary()).toMatchObject({ chatsSent: 1, chatsOpened: 1, dropped: 0, hearing: 1 });
      expect(data.page!.counts.dropped).toBe(0);

      // A page letting our link go (call/link-pruning.ts) says so through the SFU, to us alone.
      data.page!.send('node', { t: LINK_OFF });
      await relay.settle();
      expect(heard).toEqual(['page']);
      expect(linkOff).toEqual(['page']);
    } finally {
      node.attach(null);
      made.stop();
    }
  });

  it('sends nothing while it has no channel: the chat is refused, not counted', async () => {
    const made = await sfuRoom(['page', 'node']);
    const node = new NodeMessages({ selfId: 'node', meetingId: 'r', ring: () => made.rings.node!, directKeys: async () => null });
    try {
      expect(node.chat()).toBe(false);
      expect(node.summary()).toMatchObject({ chatsSent: 0, sent: 0 });
    } finally {
      made.stop();
    }
  });
});
