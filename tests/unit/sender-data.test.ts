/** @jest-environment node */
// The call's messages through the SFU (docs/e2ee-crypto.md "Messages through the SFU"): a message
// to everyone is sealed once and opens for each who holds the sender's key; one to a participant
// opens for it alone; what another key holder forges in the sender's name, a replay and a changed
// byte are dropped and counted; keys a join ratcheted on are followed. Real WebCrypto, real
// sender-key rings, a relay that forwards as Janus does (tests/support/sfu-relay.ts).
import { concatBytes, field, type Bytes } from '@/lib/meeting/e2ee/bytes';
import { ratchetSenderKey } from '@/lib/meeting/e2ee/sender-chain';
import { parseSenderData, ReplayWindow, REPLAY_WINDOW, sealToEveryone, TO_ONE } from '@/lib/meeting/e2ee/sender-data';
import { sfuRoom } from '../support/sfu-relay';
import { room } from '../support/sender-key-room';
import { until } from '../support/until';

const live: { stop(): void }[] = [];
afterEach(() => {
  for (const made of live.splice(0)) made.stop();
});

/** Everyone publishes and subscribes to everyone; the greetings are exchanged. */
async function call(ids: string[]) {
  const made = await sfuRoom(ids);
  live.push(made);
  for (const id of ids) made.publish(id);
  for (const a of ids) for (const b of ids) if (a !== b) made.subscribe(a, b);
  await made.relay.settle();
  return made;
}

const chat = (text: string) => ({ t: 'chat', id: text, text, at: 1 });

describe('messages to everyone through the SFU', () => {
  it('one seal opens for each receiver, the same bytes for all', async () => {
    const { data, relay, delivered } = await call(['ada', 'bob', 'cy']);
    const before = relay.log.length;
    expect(data.ada!.broadcast(chat('hello'), ['bob', 'cy'])).toBe(true);
    await relay.settle();
    // Sealed once: one message on Ada's channel for both receivers.
    expect(relay.log.slice(before).filter(({ from }) => from === 'ada')).toHaveLength(1);
    expect(delivered.bob).toContainEqual({ from: 'ada', message: chat('hello') });
    expect(delivered.cy).toContainEqual({ from: 'ada', message: chat('hello') });
    expect(data.bob!.counts.dropped + data.cy!.counts.dropped).toBe(0);
  });

  it('a message to one participant opens for it alone, and re-addressed opens for nobody', async () => {
    const { data, relay, delivered } = await call(['ada', 'bob', 'cy']);
    const before = relay.log.length;
    data.ada!.send('bob', chat('for bob'));
    await relay.settle();
    expect(delivered.bob).toContainEqual({ from: 'ada', message: chat('for bob') });
    // Janus forwards it to Cy too; Cy does not even try it.
    expect(delivered.cy!.some(({ message }) => (message as { id?: string }).id === 'for bob')).toBe(false);
    expect(data.cy!.counts.dropped).toBe(0);

    // Janus rewrites the receiver: the key is Ada's and Bob's alone, so Cy cannot open it.
    const sent = relay.log.slice(before).find(({ from }) => from === 'ada')!.bytes;
    const envelope = parseSenderData(sent);
    if (envelope?.kind !== 'one') throw new Error('not a direct message');
    data.cy!.receive(concatBytes(new Uint8Array([TO_ONE]), field('ada'), field('cy'), envelope.body));
    await relay.settle(3);
    expect(data.cy!.drops.auth).toBe(1);
    expect(delivered.cy!.some(({ message }) => (message as { id?: string }).id === 'for bob')).toBe(false);
  });

  it("a participant holding Ada's key cannot write in her name: the forgery is dropped and counted", async () => {
    const { data, rings, delivered } = await call(['ada', 'bob', 'mallory']);
    // Mallory seals a chat with the key Ada handed her, under Ada's name, signed with her own key: no other is hers to sign with.
    const adaKey = (await rings.mallory!.opening('ada', rings.ada!.generation!))!;
    const mallory = (await rings.mallory!.sealing())!;
    const forged = await sealToEveryone('r', { senderId: 'ada', key: adaKey, signer: mallory.signer }, 1000, JSON.stringify(chat('send me the password')));
    data.bob!.receive(forged);
    await until(() => data.bob!.counts.dropped > 0, 'the forgery dropped');
    expect(delivered.bob!.some(({ message }) => (message as { id?: string }).id === 'send me the password')).toBe(false);
    expect(data.bob!.drops.forged).toBe(1);
    expect(data.bob!.counts.dropped).toBe(1);
  });

  it('a replay and a changed byte are dropped and counted', async () => {
    const { data, relay, delivered } = await call(['ada', 'bob']);
    const before = relay.log.length;
    data.ada!.broadcast(chat('once'), ['bob']);
    await relay.settle();
    const sent = relay.log.slice(before).find(({ from }) => from === 'ada')!.bytes;
    expect(delivered.bob!.filter(({ message }) => (message as { id?: string }).id === 'once')).toHaveLength(1);

    data.bob!.receive(sent.slice());
    await relay.settle(3);
    expect(data.bob!.drops.replay).toBe(1);

    // Every part is covered: sender, generation, number, nonce, ciphertext, signature.
    for (const at of [3, sent.length - 80, sent.length - 70, sent.length - 1]) {
      const changed = sent.slice() as Bytes;
      changed[at] = changed[at]! ^ 0x01;
      data.bob!.receive(changed);
    }
    await relay.settle(3);
    expect(delivered.bob!.filter(({ message }) => (message as { id?: string }).id === 'once')).toHaveLength(1);
    expect(data.bob!.counts.dropped).toBe(5);
  });

  it('follows the keys a join ratcheted on, up to the chain’s limit, and drops one under a key it was never given', async () => {
    const { data, rings, delivered } = await call(['ada', 'bob']);
    const ada = (await rings.ada!.sealing())!;
    let key = ada.key;
    for (let step = 0; step < 3; step += 1) key = await ratchetSenderKey(key);
    // Three joins on: Bob derives the key himself, as his frame worker does.
    data.bob!.receive(await sealToEveryone('r', { senderId: 'ada', key, signer: ada.signer }, 50, JSON.stringify(chat('after three joins'))));
    await until(() => delivered.bob!.length + data.bob!.counts.dropped > 0, 'the message opened or dropped');
    expect(delivered.bob).toContainEqual({ from: 'ada', message: chat('after three joins') });

    for (let step = 3; step < 70; step += 1) key = await ratchetSenderKey(key);
    data.bob!.receive(await sealToEveryone('r', { senderId: 'ada', key, signer: ada.signer }, 51, JSON.stringify(chat('too far'))));
    await until(() => data.bob!.counts.dropped > 0, 'the message dropped');
    expect(data.bob!.drops['unknown-key']).toBe(1);
  });
});

describe("the receiver's keys of a sender (sender-key-ring.ts opening)", () => {
  it('the key before the newest box opens during the grace, and nothing after it', async () => {
    const graceMs = 300;
    const { rings, settle } = await room(['ada', 'bob', 'cy'], { debounceMs: 20, maxDelayMs: 50, intervalMs: 600_000, graceMs });
    live.push({ stop: () => Object.values(rings).forEach((ring) => ring.stop()) });
    await Promise.all(Object.values(rings).map((ring) => ring.start()));
    await settle();
    const before = rings.bob!.received().ada!;
    // Cy leaves: Ada makes a fresh key, which Bob gets; her messages in flight are under the old one.
    rings.ada!.peerLeft('cy');
    await until(() => (rings.bob!.received().ada ?? 0) > before, "Ada's fresh key at Bob");
    expect(await rings.bob!.opening('ada', before)).not.toBeNull();
    expect(await rings.bob!.opening('ada', before + 1)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, graceMs + 50));
    expect(await rings.bob!.opening('ada', before)).toBeNull();
    expect(await rings.bob!.opening('ada', before + 1)).not.toBeNull();
  });
});

describe('the replay window', () => {
  it('opens each number once, takes a late one inside the window, refuses one below it', () => {
    const window = new ReplayWindow();
    for (const seq of [0, 2, 1]) {
      expect(window.fresh(seq)).toBe(true);
      window.record(seq);
    }
    expect(window.fresh(1)).toBe(false);
    window.record(REPLAY_WINDOW + 10);
    expect(window.fresh(5)).toBe(false);
    expect(window.fresh(REPLAY_WINDOW + 9)).toBe(true);
  });
});
