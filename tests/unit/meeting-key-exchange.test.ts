/** @jest-environment node */
// KeyExchange between real keys (tests/support/key-exchange-room.ts): who makes the secret, the
// handoff to newcomers and what goes up in one POST. Whom it trusts: meeting-key-exchange-trust.test.ts.
import { MeetingCrypto } from '@/lib/meeting/client/keys/meeting-crypto';
import { fingerprintOf, Room, secretOf } from '../support/key-exchange-room';
import { until } from '../support/until';

describe('KeyExchange', () => {
  it('the first one alone makes the secret; a newcomer with the link key is verified both ways', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    expect(ada.encryption).toMatchObject({ status: 'on', source: 'created', epoch: 0 });
    const secret = ada.exchange.keys!.linkFragment()!;
    const bob = await room.join('bob', { secret: secretOf(secret) });
    expect(bob.encryption).toMatchObject({ status: 'on', source: 'link' });
    expect([ada.keysOf('bob'), bob.keysOf('ada')]).toEqual(['verified', 'verified']);
    expect([ada.verified, bob.verified]).toEqual([['bob'], ['ada']]);
  });

  it('a newcomer without the key gets it by handoff; both see the same handoff code', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    const bob = await room.join('bob');
    expect(bob.encryption).toMatchObject({ status: 'on', source: 'handoff' });
    expect(bob.keysOf('ada')).toBe('verified');
    expect(ada.exchange.keys!.handoffCodes.get('bob')?.digits).toBe(bob.exchange.keys!.handoffCodes.get('ada')?.digits);
  });

  it('a newcomer whose join carried its key: S and the holder\u2019s announcement come in one POST, nothing is asked twice', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    const bob = await room.join('bob', { postKey: true });
    expect(bob.encryption).toMatchObject({ status: 'on', source: 'handoff' });
    expect([ada.keysOf('bob'), bob.keysOf('ada')]).toEqual(['verified', 'verified']);
    expect(ada.exchange.keys!.handoffCodes.get('bob')?.digits).toBe(bob.exchange.keys!.handoffCodes.get('ada')?.digits);
    // The holder may start negotiating as soon as the key is on its way.
    expect(ada.handedOff).toEqual(['bob']);
    // bob never asked (the join did); ada answered with the key and her hello together.
    expect(room.posts.filter((post) => post.from === 'bob' && post.kinds.includes('handoff-request'))).toEqual([]);
    expect(room.posts.find((post) => post.from === 'ada')?.kinds).toEqual(['handoff', 'hello']);
  });

  it('after a handoff the newcomer announces itself at once, and its answer follows on its own: the holder verifies it meanwhile', async () => {
    const room = new Room(400);
    const ada = await room.join('ada', { host: true });
    // As the session does: the holder offers as it hands the key over.
    ada.afterHandoff = (peer) => ada.exchange.sendSignal(peer, { description: { type: 'offer', sdp: `v=0\r\na=fingerprint:${fingerprintOf('ada')}\r\n` } });
    const bobJoined = room.join('bob', { postKey: true });
    // The handoff is in and bob's announcement with it; then bob answers ada's offer (as PeerLink would).
    await until(() => room.people.get('bob')?.encryption.source === 'handoff' && ada.keysOf('bob') === 'verified', "bob's handoff and ada verifying him");
    const bob = room.people.get('bob')!;
    expect(bob.encryption.source).toBe('handoff');
    expect(room.posts.filter((post) => post.from === 'bob').map((post) => post.kinds)).toEqual([['hello']]);
    expect(ada.keysOf('bob')).toBe('verified');
    bob.exchange.sendSignal('ada', { description: { type: 'answer', sdp: `v=0\r\na=fingerprint:${fingerprintOf('bob')}\r\n` } });
    await bobJoined;
    expect(room.posts.filter((post) => post.from === 'bob').map((post) => post.kinds)).toEqual([['hello'], ['signed']]);
    expect(ada.signals.map((signal) => signal.body)).toEqual([{ description: { type: 'answer', sdp: `v=0\r\na=fingerprint:${fingerprintOf('bob')}\r\n` } }]);
  });

  it('the holder\u2019s answer to the newcomer\u2019s announcement waits for its own description, and both go up in one POST', async () => {
    const room = new Room(300);
    const ada = await room.join('ada', { host: true });
    const bobJoined = room.join('bob', { postKey: true });
    // Once bob's announcement is in (it went up after its wait), ada's description follows.
    await until(() => ada.keysOf('bob') === 'verified', 'ada verifying bob');
    ada.exchange.sendSignal('bob', { description: { type: 'offer', sdp: `v=0\r\na=fingerprint:${fingerprintOf('ada')}\r\n` } });
    await bobJoined;
    expect(room.posts.filter((post) => post.from === 'ada').map((post) => post.kinds)).toEqual([
      ['handoff', 'hello'],
      ['hello', 'signed'],
    ]);
  });

  it('the holder offers as it hands the key over: key, announcement and offer reach the newcomer in one POST', async () => {
    const room = new Room(300);
    const ada = await room.join('ada', { host: true });
    const offer = { description: { type: 'offer' as const, sdp: `v=0\r\na=fingerprint:${fingerprintOf('ada')}\r\n` } };
    ada.afterHandoff = (peer) => ada.exchange.sendSignal(peer, offer);
    const bob = await room.join('bob', { postKey: true });
    expect(room.posts.filter((post) => post.from === 'ada')[0]?.kinds).toEqual(['handoff', 'hello', 'signed']);
    // bob applies the offer (it verified ada first) and knows ada offers: it makes no offer of its own.
    expect(bob.signals).toEqual([{ from: 'ada', body: offer }]);
    expect(new Set(bob.verifiedHandedOffBy)).toEqual(new Set(['ada']));
    expect(ada.verifiedHandedOffBy).toEqual([]);
  });

  it('the holder makes its link while the key is being sealed, and the key still goes up ahead of the offer', async () => {
    const room = new Room(300);
    const ada = await room.join('ada', { host: true });
    // The sealing is held until the link was made.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const original = MeetingCrypto.prototype.answerHandoff;
    const sealing = jest.spyOn(MeetingCrypto.prototype, 'answerHandoff').mockImplementationOnce(async function (this: MeetingCrypto, ...args) {
      await held;
      return original.apply(this, args);
    });
    const offer = { description: { type: 'offer' as const, sdp: `v=0\r\na=fingerprint:${fingerprintOf('ada')}\r\n` } };
    let sealedWhenLinked: boolean | null = null;
    ada.afterHandoff = (peer) => {
      sealedWhenLinked = room.posts.some((post) => post.from === 'ada' && post.kinds.includes('handoff'));
      ada.exchange.sendSignal(peer, offer);
    };
    const joining = room.join('bob', { postKey: true });
    // Until ada has heard bob's request and made her link (key pairs take a while on a busy machine).
    await until(() => ada.handedOff.length > 0, "ada's link to bob");
    expect(ada.handedOff).toEqual(['bob']);
    expect(sealedWhenLinked).toBe(false);
    expect(room.posts.filter((post) => post.from === 'ada')).toEqual([]);
    sealing.mockRestore();
    release();
    const bob = await joining;
    await room.settle();
    expect(room.posts.filter((post) => post.from === 'ada')[0]?.kinds).toEqual(['handoff', 'hello', 'signed']);
    expect(bob.signals).toEqual([{ from: 'ada', body: offer }]);
  });

  it('with nothing to follow it, the newcomer\u2019s announcement goes up all the same', async () => {
    const room = new Room(50);
    const ada = await room.join('ada', { host: true });
    await room.join('bob', { postKey: true });
    // Its lazy wait over, the announcement goes up (a loaded machine may take longer than settle()).
    await until(() => room.posts.some((post) => post.from === 'bob') && ada.keysOf('bob') === 'verified', "bob's announcement");
    expect(room.posts.filter((post) => post.from === 'bob').map((post) => post.kinds)).toEqual([['hello']]);
    expect(ada.keysOf('bob')).toBe('verified');
  });

  it('a data-channel cipher waits for the peer to prove the key: verified() resolves only then', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    let proved = false;
    const waiting = ada.exchange.verified('bob').then(() => (proved = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(proved).toBe(false);
    await room.join('bob', { postKey: true });
    await waiting;
    expect(ada.exchange.keys!.isVerified('bob')).toBe(true);
  });
});
