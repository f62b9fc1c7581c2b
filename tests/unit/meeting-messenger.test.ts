/** @jest-environment node */
// One seam for every message of the call (call/messenger.ts; docs/meetings.md "Messages through
// the SFU"): which way each message goes (through the SFU, sealed once, to those who hear us there;
// over the link to the others), one copy kept of a message that came both ways, chat kept inside a
// breakout room, and the link when the SFU cannot take a message. Real sender keys and WebCrypto;
// the links deliver at once, the relay behaves as Janus does (tests/support/sfu-relay.ts).
import { Messenger } from '@/lib/meeting/client/call/messenger';
import { rekeyAfterRemoval } from '@/lib/meeting/client/call/rekey';
import type { KeyExchange } from '@/lib/meeting/client/keys/key-exchange';
import { MAX_SFU_TEXT } from '@/lib/meeting/client/sfu/sfu-data';
import { parseSenderData } from '@/lib/meeting/e2ee/sender-data';
import { sfuRoom } from '../support/sfu-relay';

const live: { stop(): void }[] = [];
afterEach(() => {
  for (const made of live.splice(0)) made.stop();
});

/** A call of `ids` whose pages each have a messenger; `rooms` puts them in breakout rooms (same number: same room). */
async function call(ids: string[], rooms: Record<string, number> = {}) {
  const messengers: Record<string, Messenger> = {};
  const got: Record<string, { from: string; message: { t: string } }[]> = {};
  const overLinks: { from: string; to: string; message: { t: string; _n?: number } }[] = [];
  const linksOff: { at: string; from: string }[] = [];
  const made = await sfuRoom(ids, (id) => ({
    deliver: (from, message) => messengers[id]!.receive(from, message),
    sendLink: (to, message) => messengers[id]!.link(to, message),
  }));
  live.push(made);
  for (const id of ids) {
    got[id] = [];
    const links = new Map(
      ids
        .filter((other) => other !== id)
        .map((other) => [
          other,
          {
            send: (message: unknown) => {
              overLinks.push({ from: id, to: other, message: message as { t: string } });
              messengers[other]!.receive(id, JSON.parse(JSON.stringify(message)));
              return true;
            },
          },
        ]),
    );
    messengers[id] = new Messenger({
      peers: () => ids.filter((other) => other !== id),
      links: () => links,
      linkOff: (from) => void linksOff.push({ at: id, from }),
      apart: (peerId) => (rooms[id] ?? -1) !== (rooms[peerId] ?? -1),
      sfu: () => made.data[id]!,
      deliver: (from, message) => void got[id]!.push({ from, message }),
    });
  }
  /** Everyone on the SFU, each hearing the others. */
  const allOnSfu = async () => {
    for (const id of ids) made.publish(id);
    for (const a of ids) for (const b of ids) if (a !== b) made.subscribe(a, b);
    await made.relay.settle();
  };
  /** Two on the SFU, each hearing the other; the rest still on the mesh. */
  const pairOnSfu = async (a: string, b: string) => {
    made.publish(a);
    made.publish(b);
    made.subscribe(a, b);
    made.subscribe(b, a);
    await made.relay.settle();
  };
  /** What `from` sent through Janus from now on. */
  const throughSfu = (from: string) => {
    const before = made.relay.log.length;
    return () => made.relay.log.slice(before).filter((entry) => entry.from === from);
  };
  return { ...made, messengers, got, overLinks, linksOff, allOnSfu, pairOnSfu, throughSfu };
}

const chat = (text: string) => ({ t: 'chat', id: text, text, at: 1 });
const state = { t: 'state', muted: true, cameraOff: false, sharing: false, hand: false, recording: false };
const kept = (list: { message: { t: string } }[], t: string) => list.filter(({ message }) => message.t === t);

describe('which way each message goes', () => {
  it('on the mesh every message goes over the links, numbered, and nothing through Janus', async () => {
    const { messengers, got, overLinks, relay } = await call(['ada', 'bob', 'cy']);
    messengers.ada!.broadcast(chat('hi'));
    expect(overLinks.map(({ to }) => to)).toEqual(['bob', 'cy']);
    expect(overLinks[0]!.message._n).toBe(0);
    expect(relay.log).toHaveLength(0);
    // Delivered without its number.
    expect(got.bob).toEqual([{ from: 'ada', message: chat('hi') }]);
  });

  it('through the SFU a message for everyone is sealed once for those who hear us, and goes over the link to the others', async () => {
    const { messengers, got, overLinks, relay, pairOnSfu, throughSfu } = await call(['ada', 'bob', 'cy']);
    // Ada and Bob are on the SFU; Cy, still on the mesh, neither publishes nor subscribes.
    await pairOnSfu('ada', 'bob');
    const sent = throughSfu('ada');
    messengers.ada!.broadcast(state);
    await relay.settle();
    const sealed = sent().filter(({ bytes }) => parseSenderData(bytes)?.kind === 'everyone');
    expect(sealed).toHaveLength(1);
    expect(overLinks.filter(({ from, message }) => from === 'ada' && message.t === 'state').map(({ to }) => to)).toEqual(['cy']);
    expect(kept(got.bob!, 'state')).toEqual([{ from: 'ada', message: state }]);
    expect(kept(got.cy!, 'state')).toEqual([{ from: 'ada', message: state }]);
  });

  it('a message for one peer goes through the SFU when it hears us there, else over its link', async () => {
    const { messengers, got, overLinks, relay, pairOnSfu, throughSfu } = await call(['ada', 'bob', 'cy']);
    await pairOnSfu('ada', 'bob');
    const sent = throughSfu('ada');
    messengers.ada!.send('bob', { t: 'view', visible: false } as { t: string });
    messengers.ada!.send('cy', { t: 'view', visible: true } as { t: string });
    await relay.settle();
    expect(sent().map(({ bytes }) => parseSenderData(bytes))).toEqual([expect.objectContaining({ kind: 'one', receiver: 'bob' })]);
    expect(overLinks.filter(({ message }) => message.t === 'view').map(({ to }) => to)).toEqual(['cy']);
    expect(kept(got.bob!, 'view')).toEqual([{ from: 'ada', message: { t: 'view', visible: false } }]);
    expect(kept(got.cy!, 'view')).toEqual([{ from: 'ada', message: { t: 'view', visible: true } }]);
  });

  it("the host's rekey after a removal goes to each who stays alone, never sealed for everyone", async () => {
    const { messengers, got, relay, allOnSfu, throughSfu } = await call(['host', 'ada', 'mallory']);
    await allOnSfu();
    const sent = throughSfu('host');
    const keyExchange = { nextEpoch: async () => ({ secret: 's'.repeat(43), epoch: 1 }), keys: { isVerified: () => true } } as unknown as KeyExchange;
    await rekeyAfterRemoval(keyExchange, messengers.host!, ['ada', 'mallory'], 'mallory');
    await relay.settle();
    expect(sent().map(({ bytes }) => parseSenderData(bytes)?.kind)).toEqual(['one']);
    expect(kept(got.ada!, 'rekey')).toHaveLength(1);
    expect(kept(got.mallory!, 'rekey')).toHaveLength(0);
  });
});

describe('one copy', () => {
  it('a message that came both ways (through Janus and over the link) is kept once', async () => {
    const { messengers, got, relay, publish, subscribe, overLinks } = await call(['ada', 'bob', 'cy']);
    publish('ada');
    publish('bob');
    subscribe('ada', 'bob');
    subscribe('bob', 'ada');
    // Cy subscribed to Ada, but Ada has not had its greeting yet: she sends Cy's copy over the link too.
    relay.subscribe('cy', 'ada');
    await relay.settle();
    messengers.ada!.broadcast(chat('twice'));
    await relay.settle();
    expect(overLinks.filter(({ message }) => message.t === 'chat').map(({ to }) => to)).toEqual(['cy']);
    expect(made(got.cy!)).toEqual(['twice']);
    expect(made(got.bob!)).toEqual(['twice']);
    // Another message, with a number of its own, is kept too.
    messengers.ada!.broadcast(chat('again'));
    await relay.settle();
    expect(made(got.cy!)).toEqual(['twice', 'again']);
  });

  it('an older state that came the other way after a newer one does not undo it', async () => {
    const { messengers, got } = await call(['ada', 'bob']);
    // Over the link just before Bob heard Ada through the SFU, and through the SFU just after: the second came first.
    messengers.bob!.receive('ada', { ...state, muted: false, _n: 8 });
    messengers.bob!.receive('ada', { ...state, muted: true, _n: 7 });
    messengers.bob!.receive('ada', { ...chat('older chat still shown'), _n: 6 });
    expect(got.bob!.map(({ message }) => message)).toEqual([{ ...state, muted: false }, chat('older chat still shown')]);
  });
});

const made = (list: { message: { t: string } }[]) => kept(list, 'chat').map(({ message }) => (message as { text?: string }).text);

describe('breakout rooms', () => {
  it('chat stays inside the room, to each room member alone while rooms are open; the rest is still sealed once for everyone', async () => {
    const { messengers, got, overLinks, relay, allOnSfu, throughSfu } = await call(['ada', 'bob', 'cy'], { ada: 0, bob: 0, cy: 1 });
    await allOnSfu();
    const sent = throughSfu('ada');
    messengers.ada!.broadcast(chat('room 0 only'));
    messengers.ada!.broadcast(state);
    await relay.settle();
    expect(made(got.bob!)).toEqual(['room 0 only']);
    expect(made(got.cy!)).toEqual([]);
    // Through Janus under the pair's key, for bob alone (a large call has no links): never sealed
    // under a sender key that someone of before the split may still hold.
    expect(overLinks.filter(({ message }) => message.t === 'chat')).toEqual([]);
    const kinds = sent().map(({ bytes }) => parseSenderData(bytes));
    expect(kinds.filter((envelope) => envelope?.kind === 'one').map((envelope) => envelope?.kind === 'one' && envelope.receiver)).toEqual(['bob']);
    expect(kinds.filter((envelope) => envelope?.kind === 'everyone')).toHaveLength(1);
    expect(kept(got.cy!, 'state')).toHaveLength(1);
  });

  it('while rooms are open, a room member who does not hear us through the SFU gets the chat over its link', async () => {
    const { messengers, got, overLinks, relay } = await call(['ada', 'bob', 'cy'], { ada: 0, bob: 0, cy: 1 });
    messengers.ada!.broadcast(chat('over the link'));
    await relay.settle();
    expect(made(got.bob!)).toEqual(['over the link']);
    expect(overLinks.filter(({ message }) => message.t === 'chat').map(({ to }) => to)).toEqual(['bob']);
  });

  it('chat from another room is not shown, whichever way it came', async () => {
    const { messengers, got } = await call(['ada', 'bob', 'cy'], { ada: 0, bob: 0, cy: 1 });
    messengers.cy!.link('ada', chat('from room 1'));
    messengers.ada!.receive('cy', chat('through the SFU'));
    expect(got.ada).toEqual([]);
  });
});

describe('a link closed by agreement (call/link-pruning.ts)', () => {
  it("a peer's link-off, whichever way it came, closes our side and is no message for the call", async () => {
    const { messengers, got, linksOff, allOnSfu, relay } = await call(['ada', 'bob']);
    await allOnSfu();
    messengers.bob!.send('ada', { t: 'link-off' });
    messengers.bob!.link('ada', { t: 'link-off' });
    await relay.settle();
    expect(linksOff).toEqual([
      { at: 'ada', from: 'bob' },
      { at: 'ada', from: 'bob' },
    ]);
    expect(got.ada).toEqual([]);
  });
});

describe('the link when the SFU cannot take a message', () => {
  it('a message too long for the SFU goes over the links to all', async () => {
    const { messengers, got, overLinks, allOnSfu, throughSfu } = await call(['ada', 'bob']);
    await allOnSfu();
    const sent = throughSfu('ada');
    messengers.ada!.broadcast(chat('x'.repeat(MAX_SFU_TEXT)));
    expect(overLinks.filter(({ message }) => message.t === 'chat').map(({ to }) => to)).toEqual(['bob']);
    expect(sent()).toHaveLength(0);
    expect(kept(got.bob!, 'chat')).toHaveLength(1);
  });

  it('a message the SFU took but could not send (its channel closed meanwhile) goes over the link, once', async () => {
    const { messengers, got, overLinks, relay, allOnSfu } = await call(['ada', 'bob']);
    await allOnSfu();
    relay.publishing.delete('ada');
    messengers.ada!.broadcast(chat('rescued'));
    await relay.settle();
    expect(overLinks.filter(({ message }) => message.t === 'chat').map(({ to }) => to)).toEqual(['bob']);
    expect(made(got.bob!)).toEqual(['rescued']);
  });

  it("a peer's bye over the link: it hears us no more, and the bye reaches nothing of the call", async () => {
    const { messengers, got, allOnSfu, data } = await call(['ada', 'bob']);
    await allOnSfu();
    expect(data.ada!.hearing()).toEqual(['bob']);
    messengers.bob!.link('ada', { t: 'sfu-bye' });
    expect(data.ada!.hearing()).toEqual([]);
    expect(got.ada).toEqual([]);
  });
});
