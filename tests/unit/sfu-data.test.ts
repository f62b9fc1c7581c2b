/** @jest-environment node */
// Who hears us through the SFU (docs/meetings.md "Messages through the SFU"): Janus relays a
// publisher's messages only to subscribers whose own channel on the subscription is open, and does
// not say who subscribed to whom, so a peer counts as hearing us only once it greeted us, whichever
// of the two subscribed first. A page that stops subscribing says goodbye first and keeps the
// subscription DRAIN_MS: what the sender sent before it heard the bye still arrives, and what it
// sends after goes over the link (the lost messages of a mesh→SFU→mesh move under load).
import { DRAIN_MS, GREET_TRIES } from '@/lib/meeting/client/sfu/sfu-data';
import { Departures } from '@/lib/meeting/client/sfu/sfu-channels';
import { parseSenderData } from '@/lib/meeting/e2ee/sender-data';
import { sfuRoom } from '../support/sfu-relay';
import { until } from '../support/until';

const live: { stop(): void }[] = [];
afterEach(() => {
  for (const made of live.splice(0)) made.stop();
});

async function pair() {
  const made = await sfuRoom(['ada', 'bob']);
  live.push(made);
  made.publish('ada');
  made.publish('bob');
  return made;
}

const chat = (text: string) => ({ t: 'chat', id: text, text, at: 1 });
const texts = (list: { message: unknown }[]) => list.map(({ message }) => (message as { text?: string }).text);

describe('greetings', () => {
  it.each([
    ['Bob subscribes first', 'bob', 'ada'],
    ['Ada subscribes first', 'ada', 'bob'],
  ])('%s: each hears the other only once greeted by it', async (_, first, second) => {
    const { data, relay, subscribe } = await pair();
    subscribe(first, second);
    await relay.settle();
    // The first one's greeting went out, but Janus relays it to nobody: the other does not subscribe yet.
    expect(data[first]!.hearing()).toEqual([]);
    expect(data[second]!.hearing()).toEqual([]);

    subscribe(second, first);
    await relay.settle();
    expect(data[first]!.hearing()).toEqual([second]);
    expect(data[second]!.hearing()).toEqual([first]);
    // Nothing the greetings carried reached the call.
    expect(data.ada!.counts.dropped + data.bob!.counts.dropped).toBe(0);
  });

  it(`greets ${GREET_TRIES} times at most while unanswered, and stops once answered`, async () => {
    const { data, relay, subscribe } = await pair();
    subscribe('bob', 'ada');
    await relay.settle(80);
    const greetings = relay.log.filter(({ from }) => from === 'bob').length;
    expect(greetings).toBe(GREET_TRIES);
    expect(data.ada!.hearing()).toEqual([]);

    subscribe('ada', 'bob');
    await relay.settle(40);
    const after = relay.log.length;
    await relay.settle(40);
    expect(relay.log.length).toBe(after);
  });

  it('a message through the SFU reaches only those whose channel is open, whoever it greeted', async () => {
    const { data, relay, subscribe, delivered } = await pair();
    subscribe('ada', 'bob');
    await relay.settle();
    // Bob does not subscribe to Ada: what she sends through Janus goes nowhere, so the messenger
    // (call/messenger.ts) sends Bob hers over the link.
    data.ada!.broadcast(chat('lost'), ['bob']);
    await relay.settle();
    expect(texts(delivered.bob!)).toEqual([]);
    expect(data.ada!.hearing()).toEqual([]);
  });
});

describe('the bye', () => {
  it('a receiver that leaves says goodbye first, keeps the subscription DRAIN_MS, and loses nothing', async () => {
    const { data, relay, subscribe, delivered, linked } = await pair();
    subscribe('ada', 'bob');
    subscribe('bob', 'ada');
    await relay.settle();
    expect(data.ada!.hearing()).toEqual(['bob']);

    // Ada sends while Bob is about to go back to the mesh: on its way through Janus.
    const before = relay.log.length;
    data.ada!.broadcast(chat('in flight'), ['bob']);
    await relay.sentBy('ada', before);
    // Bob: the bye first (over the link), the subscription kept until DRAIN_MS later.
    data.bob!.bye(['ada']);
    expect(linked).toContainEqual({ from: 'bob', to: 'ada', message: { t: 'sfu-bye' } });
    // From the bye on Ada sends to Bob over the link: he no longer hears her through the SFU.
    expect(data.ada!.hearing()).toEqual([]);
    await relay.settle();
    await until(() => delivered.bob!.length > 0, 'the message at Bob');
    expect(texts(delivered.bob!)).toEqual(['in flight']);
    // DRAIN_MS after the bye (sfu-media.ts leave, sfu-session.ts toMesh) the subscription goes: nothing is on its way any more.
    expect(DRAIN_MS).toBeGreaterThan(1000);
    relay.unsubscribe('bob', 'ada');
  });

  it('without the bye, a message on its way when the receiver unsubscribes is lost (the bug the bye fixes)', async () => {
    const { data, relay, subscribe, delivered } = await pair();
    subscribe('ada', 'bob');
    subscribe('bob', 'ada');
    await relay.settle();
    const before = relay.log.length;
    data.ada!.broadcast(chat('in flight'), ['bob']);
    await relay.sentBy('ada', before);
    expect(parseSenderData(relay.log[before]!.bytes)?.sender).toBe('ada');
    relay.unsubscribe('bob', 'ada');
    await relay.settle();
    expect(texts(delivered.bob!)).toEqual([]);
    // And Ada still believes Bob hears her: her next message would be lost too.
    expect(data.ada!.hearing()).toEqual(['bob']);
  });

  it("a breakout split (sfu-media.ts regroup): the other room's media stops at once, the bye, and the subscription only after the drain", async () => {
    const { data, relay, subscribe, delivered } = await pair();
    subscribe('ada', 'bob');
    subscribe('bob', 'ada');
    await relay.settle();
    const steps: string[] = [];
    const drainMs = 150;
    const departures = new Departures(
      {
        pause: (ids, send) => void steps.push(`${send ? 'resume' : 'pause'} ${ids.join()}`),
        bye: (ids) => {
          steps.push(`bye ${ids.join()}`);
          data.bob!.bye(ids);
        },
        unsubscribe: (ids) => {
          steps.push(`unsubscribe ${ids.join()}`);
          for (const id of ids) relay.unsubscribe('bob', id);
        },
        kept: () => false,
        rejoined: () => undefined,
        closed: () => false,
      },
      drainMs,
    );
    const before = relay.log.length;
    data.ada!.broadcast(chat('sent before the split reached her'), ['bob']);
    await relay.sentBy('ada', before);
    departures.leave(['ada']);
    // A second regroup meanwhile does not say goodbye twice.
    departures.leave(['ada']);
    expect(steps).toEqual(['pause ada', 'bye ada']);
    expect(data.ada!.hearing()).toEqual([]);
    await relay.settle();
    await until(() => delivered.bob!.length > 0, 'the message at Bob');
    expect(texts(delivered.bob!)).toEqual(['sent before the split reached her']);
    expect(relay.subscribes('bob', 'ada')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, drainMs));
    expect(steps).toEqual(['pause ada', 'bye ada', 'unsubscribe ada']);
    expect(relay.subscribes('bob', 'ada')).toBe(false);
  });

  it('a publisher back in our room during the drain keeps its subscription, its media again, and is greeted anew', async () => {
    const { data, relay, subscribe } = await pair();
    subscribe('ada', 'bob');
    subscribe('bob', 'ada');
    await relay.settle();
    const steps: string[] = [];
    let together = false;
    const departures = new Departures(
      {
        pause: (ids, send) => void steps.push(`${send ? 'resume' : 'pause'} ${ids.join()}`),
        bye: (ids) => data.bob!.bye(ids),
        unsubscribe: (ids) => void steps.push(`unsubscribe ${ids.join()}`),
        kept: () => together,
        rejoined: (ids) => {
          steps.push(`rejoined ${ids.join()}`);
          data.bob!.opened(ids);
        },
        closed: () => false,
      },
      100,
    );
    departures.leave(['ada']);
    expect(data.ada!.hearing()).toEqual([]);
    together = true;
    await new Promise((resolve) => setTimeout(resolve, 120));
    await relay.settle();
    expect(steps).toEqual(['pause ada', 'rejoined ada']);
    expect(data.ada!.hearing()).toEqual(['bob']);
  });

  it('a publisher that leaves Janus hears nothing there, and a page back on the SFU is greeted anew', async () => {
    const { data, relay, subscribe, publish } = await pair();
    subscribe('ada', 'bob');
    subscribe('bob', 'ada');
    await relay.settle();
    data.ada!.lost('bob');
    expect(data.ada!.hearing()).toEqual([]);
    // Ada's own connection is replaced (a new node after a loss): nobody hears the new one until greeted.
    publish('ada');
    expect(data.ada!.hearing()).toEqual([]);
    subscribe('bob', 'ada');
    await relay.settle();
    expect(data.ada!.hearing()).toEqual(['bob']);
  });
});
