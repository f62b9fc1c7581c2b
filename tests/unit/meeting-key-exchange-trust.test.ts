/** @jest-environment node */
// KeyExchange between real keys (tests/support/key-exchange-room.ts): whom it trusts — gated
// rooms, the secret's remaker when holders leave, another meeting's key, changed signals, removals
// and the host's rekey. The handoff itself: meeting-key-exchange.test.ts.
import { MeetingCrypto } from '@/lib/meeting/client/keys/meeting-crypto';
import { randomBytes } from '@/lib/meeting/e2ee/bytes';
import { MEETING, fingerprintOf, prepared, Room, secretOf } from '../support/key-exchange-room';

describe('KeyExchange', () => {
  it('gated: the host hands the key only to someone it let in', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true, gated: true });
    const bob = await room.join('bob');
    expect(bob.encryption.status).toBe('waiting-key');
    expect(ada.keysOf('bob')).toBe('pending');

    ada.exchange.letIn('bob');
    await bob.exchange.enter(['ada']);
    await room.settle();
    expect(bob.encryption).toMatchObject({ status: 'on', source: 'handoff' });
    expect(ada.keysOf('bob')).toBe('verified');
  });

  it('gated, with the key in the join: nothing is handed over before the host lets the newcomer in', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true, gated: true });
    const bob = await room.join('bob', { postKey: true });
    expect(bob.encryption.status).toBe('waiting-key');
    expect(ada.handedOff).toEqual([]);
    expect(room.posts.filter((post) => post.kinds.includes('handoff'))).toEqual([]);
  });

  it('waiting for the key when the only holder leaves: the one left alone makes it', async () => {
    const room = new Room();
    await room.join('ghost', { host: true });
    room.offline.add('ghost'); // its tab closed; the server says so only after a grace period
    const ada = await room.join('ada', { postKey: true });
    expect(ada.encryption.status).toBe('waiting-key');
    await room.leave('ghost');
    expect(ada.encryption).toMatchObject({ status: 'on', source: 'created' });
  });

  it.each([
    ['the earlier arrival has the smaller id', 'ada', 'bob'],
    ['the later arrival has the smaller id', 'bob', 'ada'],
  ])('two waiting for each other after the holder left (%s): the smaller id makes the key and hands it over', async (_name, first, second) => {
    const room = new Room();
    await room.join('ghost', { host: true });
    room.offline.add('ghost');
    const one = await room.join(first, { postKey: true });
    const two = await room.join(second, { postKey: true });
    expect([one.encryption.status, two.encryption.status]).toEqual(['waiting-key', 'waiting-key']);
    await room.leave('ghost');
    await room.settle();
    const [smaller, larger] = [one, two].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(smaller!.encryption).toMatchObject({ status: 'on', source: 'created' });
    expect(larger!.encryption).toMatchObject({ status: 'on', source: 'handoff' });
    expect([one.keysOf(two.id), two.keysOf(one.id)]).toEqual(['verified', 'verified']);
  });

  it('a link whose key is out of date (the room restarted): the newcomer asks for the key and gets in; the holder stays on (issue 48)', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    const eve = await room.join('eve', { secret: randomBytes(32) });
    await room.settle();
    expect(eve.encryption).toMatchObject({ status: 'on', source: 'handoff', staleLink: true });
    expect([eve.keysOf('ada'), ada.keysOf('eve')]).toEqual(['verified', 'verified']);
    expect(ada.encryption).toMatchObject({ status: 'on', source: 'created' });
    expect(ada.handedOff).toEqual(['eve']);
    expect(new Set(eve.verifiedHandedOffBy)).toEqual(new Set(['ada']));
  });

  it('a link copied before the host rekeyed after a removal: the newcomer gets the new epoch by handoff', async () => {
    const room = new Room();
    const secret = randomBytes(32);
    const ada = await room.join('ada', { host: true, secret });
    const bob = await room.join('bob');
    const next = await ada.exchange.nextEpoch();
    await bob.exchange.acceptRekey(next!.epoch, next!.secret);
    const cy = await room.join('cy', { secret });
    await room.settle();
    expect(cy.encryption).toMatchObject({ status: 'on', source: 'handoff', epoch: 1, staleLink: true });
    expect([cy.keysOf('ada'), cy.keysOf('bob'), ada.keysOf('cy'), bob.keysOf('cy')]).toEqual(['verified', 'verified', 'verified', 'verified']);
    expect(ada.encryption.status).toBe('on');
  });

  it('gated: an out-of-date link gets the key only from the host who lets it in', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true, gated: true });
    const eve = await room.join('eve', { secret: randomBytes(32) });
    await room.settle();
    expect(eve.encryption).toMatchObject({ status: 'waiting-key', staleLink: true });
    expect(ada.handedOff).toEqual([]);
    ada.exchange.letIn('eve');
    await eve.exchange.enter(['ada']);
    await room.settle();
    expect(eve.encryption).toMatchObject({ status: 'on', source: 'handoff' });
    expect(ada.keysOf('eve')).toBe('verified');
  });

  it('signed signals arrive; one changed on the way, or with another fingerprint, refuses the peer', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    const bob = await room.join('bob');
    const candidate = { candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMid: '0', sdpMLineIndex: 0 } };
    ada.exchange.sendSignal('bob', candidate);
    await room.settle();
    expect(bob.signals).toEqual([{ from: 'ada', body: candidate }]);

    // The offer's DTLS fingerprint is not the one ada announced: someone sits in the middle.
    ada.exchange.sendSignal('bob', { description: { type: 'offer', sdp: `v=0\r\na=fingerprint:${fingerprintOf('mallory')}\r\n` } });
    await room.settle();
    expect(bob.tampered).toEqual(['ada']);

    // A relay that changes a signed body breaks the signature.
    room.relay = (from, to, envelope) => envelope.replace('127.0.0.1', '10.6.6.6');
    bob.exchange.sendSignal('ada', candidate);
    await room.settle();
    expect(ada.tampered).toEqual(['bob']);
    expect(ada.signals).toEqual([]);
  });

  it('removed during the exchange: what it sent before we knew it is dropped with it', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    const secret = secretOf(ada.exchange.keys!.linkFragment()!);
    // Ada has not heard of bob yet: his hello is held.
    const bobKeys = await MeetingCrypto.create(MEETING, 'bob', 'streams', null, prepared('bob'));
    await bobKeys.useSecret(secret, 'link');
    await ada.exchange.receive('bob', JSON.stringify({ k: 'hello', announcement: bobKeys.announcement(), reply: false }));
    expect(ada.verified).toEqual([]);
    // The host removes him before the server's "join" reached us: forgotten, nothing released.
    await ada.exchange.forget('bob');
    ada.known.set('bob', { id: 'bob', isHost: false, keys: 'pending' });
    await ada.exchange.release('bob');
    await room.settle();
    expect(ada.verified).toEqual([]);
    expect(ada.exchange.keys!.isVerified('bob')).toBe(false);
  });

  it('the host rekeys after a removal; the others accept only a later epoch', async () => {
    const room = new Room();
    const ada = await room.join('ada', { host: true });
    const bob = await room.join('bob');
    const next = await ada.exchange.nextEpoch();
    expect(next?.epoch).toBe(1);
    expect(ada.encryption.epoch).toBe(1);
    await bob.exchange.acceptRekey(next!.epoch, next!.secret);
    expect(bob.encryption.epoch).toBe(1);
    await bob.exchange.acceptRekey(1, next!.secret);
    await bob.exchange.acceptRekey(0, next!.secret);
    expect(bob.encryption.epoch).toBe(1);
    expect(bob.exchange.keys!.currentEpoch).toBe(1);
  });
});
