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

/** Both subscribe to each other and wait until each heard the other's greeting. */
async function greetEachOther({ data: { ada, bob }, relay, subscribe }: Awaited<ReturnType<typeof pair>>) {
  subscribe('ada', 'bob');
  subscribe('bob', 'ada');
  await relay.until(() => ada!.hearing().length > 0 && bob!.hearing().length > 0, 'the greetings answered');
  // The last answers too: nothing of the greetings is left on its way.
  await relay.settle();
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
    await relay.until(() => data[first]!.hearing().length > 0 && data[second]!.hearing().length > 0, 'the greetings answered');
    expect(data[first]!.hearing()).toEqual([second]);
    expect(data[second]!.hearing()).toEqual([first]);
    // Nothing the greetings carried reached the call.
    expect(data.ada!.counts.dropped + data.bob!.counts.dropped).toBe(0);
  });

  it(`greets ${GREET_TRIES} times at most while unanswered, and stops once answered`, async () => {
    const { data, relay, subscribe } = await pair();
    subscribe('bob', 'ada');
    const greetings = () => relay.log.filter(({ from }) => from === 'bob').length;
    await relay.until(() => greetings() >= GREET_TRIES, "Bob's greetings");
    await relay.settle(80);
    expect(greetings()).toBe(GREET_TRIES);
    expect(data.ada!.hearing()).toEqual([]);

    subscribe('ada', 'bob');
    await relay.until(() => data.ada!.hearing().length > 0 && data.bob!.hearing().length > 0, 'the greetings answered');
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
    const made = await pair();
    const { data, relay, delivered, linked } = made;
    await greetEachOther(made);
    expect(data.ada!.hearing()).toEqual(['bob']);

    // Ada sends while Bob is about to go back to the mesh: on its way through Janus.
    const before = relay.log.length;
    data.ada!.broadcast(chat('in flight'), ['bob']);
    await relay.sentBy('ada', before);
    // Bob: the bye first (over the link), the subscription kept until DRAIN_MS later.
    data.bob!.bye(['ada']);
    expect(linked).toContainEqual({ from: 'bob', to: 'ada', message: { t: 'sfu-bye', upTo: expect.any(Number) } });
    // From the bye on Ada sends to Bob over the link: he no longer hears her through the SFU.
    expect(data.ada!.hearing()).toEqual([]);
    await relay.settle();
    await relay.until(() => delivered.bob!.length > 0, 'the message at Bob');
    expect(texts(delivered.bob!)).toEqual(['in flight']);
    // DRAIN_MS after the bye (sfu-media.ts leave, sfu-session.ts toMesh) the subscription goes: nothing is on its way any more.
    expect(DRAIN_MS).toBeGreaterThan(1000);
    relay.unsubscribe('bob', 'ada');
  });

  it('a greeting sealed before the bye and come after it is stale: the peer is not heard again until it greets anew', async () => {
    const made = await pair();
    const { data, relay } = made;
    await greetEachOther(made);
    // Bob greets Ada once more (a retry, or the answer to hers) and, before Janus relays it, leaves.
    const before = relay.log.length;
    data.bob!.opened(['ada']);
    await relay.sentBy('bob', before);
    data.bob!.bye(['ada']);
    const opened = data.ada!.counts.opened;
    await relay.until(() => data.ada!.counts.opened > opened, 'the late greeting opened');
    await relay.settle();
    expect(relay.log.length - before).toBe(1);
    // Ada opened the greeting and let it pass: were Bob heard, her messages would go to a subscription about to end.
    expect(data.ada!.hearing()).toEqual([]);
    // Back in the same room, Bob greets anew and is heard.
    data.bob!.opened(['ada']);
    await relay.until(() => data.ada!.hearing().length > 0, 'Bob greeted anew');
    expect(data.ada!.hearing()).toEqual(['bob']);
  });

  it('without the bye, a message on its way when the receiver unsubscribes is lost (the bug the bye fixes)', async () => {
    const made = await pair();
    const { data, relay, delivered } = made;
    await greetEachOther(made);
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
    const made = await pair();
    const { data, relay, delivered } = made;
    await greetEachOther(made);
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
    await relay.until(() => delivered.bob!.length > 0, 'the message at Bob');
    expect(texts(delivered.bob!)).toEqual(['sent before the split reached her']);
    expect(relay.subscribes('bob', 'ada')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, drainMs));
    expect(steps).toEqual(['pause ada', 'bye ada', 'unsubscribe ada']);
    expect(relay.subscribes('bob', 'ada')).toBe(false);
  });

  it('a publisher back in our room during the drain keeps its subscription, its media again, and is greeted anew', async () => {
    const made = await pair();
    const { data, relay } = made;
    await greetEachOther(made);
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
    await relay.until(() => data.ada!.hearing().length > 0, 'Ada greeted anew');
    expect(steps).toEqual(['pause ada', 'rejoined ada']);
    expect(data.ada!.hearing()).toEqual(['bob']);
  });

  it('a publisher that leaves Janus hears nothing there, and a page back on the SFU is greeted anew', async () => {
    const made = await pair();
    const { data, relay, publish, subscribe } = made;
    await greetEachOther(made);
    data.ada!.lost('bob');
    expect(data.ada!.hearing()).toEqual([]);
    // Ada's own connection is replaced (a new node after a loss): nobody hears the new one until greeted.
    publish('ada');
    expect(data.ada!.hearing()).toEqual([]);
    subscribe('bob', 'ada');
    await relay.until(() => data.ada!.hearing().length > 0, 'Ada greeted anew');
    expect(data.ada!.hearing()).toEqual(['bob']);
  });
});
