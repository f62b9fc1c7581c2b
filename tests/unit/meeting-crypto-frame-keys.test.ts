/** @jest-environment node */
// A verified peer's frame keys are made in the background (issue 17): acceptAnnouncement answers
// once the announcement verified, before the frame worker has the keys, and framesReady settles
// when it has them. Keys of a later epoch (a host's rekey) are never overtaken by an earlier
// epoch's still on their way, so the key a sender ends with is the latest.
import { generateRoomSecret } from '@/lib/meeting/e2ee/keys';
import { NodeFrames } from '@/bench/large-room/node-frames';
import { cryptoParticipant } from '../support/meeting-participant';

/**
 * NodeFrames whose worker stand-in holds epoch 0's keys until `open()` and takes later epochs' at
 * once, recording the order keys were set in.
 */
class HeldFrames extends NodeFrames {
  readonly sendKids: bigint[] = [];
  private release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));

  open() {
    this.release();
  }

  override async setSendKey(...args: Parameters<NodeFrames['setSendKey']>) {
    if (epochOf(args[3]) === 0) await this.gate;
    this.sendKids.push(args[3]);
    return super.setSendKey(...args);
  }

  override async setReceiveKey(...args: Parameters<NodeFrames['setReceiveKey']>) {
    if (epochOf(args[2]) === 0) await this.gate;
    return super.setReceiveKey(...args);
  }
}

const epochOf = (kid: bigint) => Number(kid >> BigInt(16));

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return done;
};

/** peer-a, whose worker holds epoch 0's keys, has just accepted peer-b's announcement. */
async function acceptedWithHeldKeys() {
  const secret = generateRoomSecret();
  const held = new HeldFrames();
  const self = await cryptoParticipant('peer-a', held, secret);
  const other = await cryptoParticipant('peer-b', new NodeFrames(), secret);
  expect(await self.acceptAnnouncement(other.announcement()!)).toBe('ok');
  return { held, self };
}

it('a peer is verified before its frame keys are in the worker, and framesReady says when they are', async () => {
  const { held, self } = await acceptedWithHeldKeys();
  expect(self.isVerified('peer-b')).toBe(true);
  expect(await settled(self.framesReady('peer-b'))).toBe(false);
  expect(held.keyring.encryptor('peer-b', 'audio')).toBeFalsy();

  held.open();
  await self.framesReady('peer-b');
  expect(held.keyring.encryptor('peer-b', 'audio')).toBeTruthy();
});

it('a rekey’s keys are set after the earlier epoch’s still on their way, never before', async () => {
  const { held, self } = await acceptedWithHeldKeys();

  // Epoch 1's keys would be set at once, epoch 0's are held: they must still come first.
  const rotated = self.rotate(generateRoomSecret(), 1);
  expect(await settled(rotated)).toBe(false);
  held.open();
  expect(await rotated).toBe(true);
  await self.framesReady('peer-b');
  const epochs = held.sendKids.map(epochOf);
  // Epoch 0's keys (one per slot), then epoch 1's: the last key set is the later epoch's.
  expect(epochs.length).toBeGreaterThan(1);
  expect(epochs).toEqual([...epochs].sort((a, b) => a - b));
  expect(epochs[0]).toBe(0);
  expect(epochs.at(-1)).toBe(1);
});
