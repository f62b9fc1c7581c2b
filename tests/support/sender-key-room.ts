// Participants with real frame keyrings and sender-key rings whose signals reach each other at
// once (tests/unit/e2ee-sender-keys.test.ts, tests/unit/e2ee-key-schedule.test.ts).
import { derivePairSecret, generateEcdhKeyPair } from '@/lib/meeting/e2ee/keys';
import { deriveSealKey, openSenderKey, sealSenderKey } from '@/lib/meeting/e2ee/sender-keys';
import { FrameKeyring } from '@/lib/meeting/client/frames/frame-transform';
import { SenderKeyRing, SFU_SEND, sfuPeer, type SenderKeyContext } from '@/lib/meeting/client/sfu/sender-key-ring';

/** Participants with real frame keyrings, whose signals reach each other at once. */
export async function room(ids: string[], schedule?: SenderKeyContext['schedule']) {
  const pairs = new Map<string, { pair: CryptoKey }>();
  const keyPairs = Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await generateEcdhKeyPair()] as const)));
  for (const a of ids)
    for (const b of ids) if (a !== b) pairs.set(`${a}>${b}`, { pair: await derivePairSecret(keyPairs[a]!.privateKey, keyPairs[b]!.publicKey) });
  /** In the call; of them, `unverified` are not verified yet (no key goes to them). */
  const present = new Set(ids);
  const unverified = new Set<string>();
  const keyrings: Record<string, FrameKeyring> = {};
  const rings: Record<string, SenderKeyRing> = {};
  const delivered: Promise<unknown>[] = [];
  const sent: { from: string; to: string; generation: number; box: string }[] = [];
  for (const id of ids) {
    keyrings[id] = new FrameKeyring();
    rings[id] = new SenderKeyRing({
      frames: keyrings[id]!,
      peers: () => [...present].filter((other) => other !== id && !unverified.has(other)),
      here: () => [...present].filter((other) => other !== id),
      seal: async (to, key) => sealSenderKey(await deriveSealKey(pairs.get(`${id}>${to}`)!.pair, id, to), { roomId: 'r', senderId: id, receiverId: to }, key),
      open: async (from, generation, box) =>
        openSenderKey(await deriveSealKey(pairs.get(`${id}>${from}`)!.pair, from, id), { roomId: 'r', senderId: from, receiverId: id }, generation, box),
      schedule,
      send: (to, body) => {
        sent.push({ from: id, to, ...body.senderKey });
        delivered.push(rings[to]!.receive(id, body.senderKey.generation, body.senderKey.box));
      },
    });
  }
  const settle = async () => {
    while (delivered.length) await delivered.shift();
  };
  /** What `to` finds in a box `from` sealed for it (a test's participant reading the key it was given). */
  const open = async (to: string, from: string, generation: number, box: string) =>
    openSenderKey(await deriveSealKey(pairs.get(`${to}>${from}`)!.pair, from, to), { roomId: 'r', senderId: from, receiverId: to }, generation, box);
  /** The pair secret `a` holds with `b` (what a page's direct keys come from: keys/meeting-crypto.ts directKeys). */
  const pairSecret = (a: string, b: string) => pairs.get(`${a}>${b}`)?.pair ?? null;
  return { keyrings, rings, present, unverified, settle, sent, open, pairSecret };
}

/** A camera frame as `from` seals it now under its sender key (no signature: the keyring alone). */
export async function sealNow(keyrings: Record<string, FrameKeyring>, from: string) {
  const encryptor = keyrings[from]!.encryptor(SFU_SEND, 'camera')!;
  return (await encryptor.encrypt(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]), 10))!;
}

export function openAs(keyrings: Record<string, FrameKeyring>, from: string, to: string, sealed: Uint8Array<ArrayBuffer>) {
  return keyrings[to]!.decryptor(sfuPeer(from), 'camera').open(sealed, 10);
}

export async function sendAndOpen(keyrings: Record<string, FrameKeyring>, from: string, to: string) {
  return openAs(keyrings, from, to, await sealNow(keyrings, from));
}
