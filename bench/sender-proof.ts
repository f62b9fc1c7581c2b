// `npm run bench:sender-proof` (issue 46, docs/e2ee-crypto.md "Sender proof" and "Key schedule"):
// what proving each frame's sender costs at 720p and audio, per frame and batched, and what a
// join costs under a fresh random key versus a one-way ratchet, at N = 10, 50, 100. Node's
// WebCrypto on this machine (BoringSSL in Chromium is of the same order). Prints; asserts nothing.
import { webcrypto } from 'node:crypto';
import { derivePairSecret, generateEcdhKeyPair } from '@/lib/meeting/e2ee/keys';
import { generateSenderKey, openSenderKeyFrom, sealSenderKeyFor, senderMediaBaseKey } from '@/lib/meeting/e2ee/sender-keys';
import { checkFrame, generateFrameProofKey, importFrameProofKey, proveFrame, FRAME_PROOF_LENGTH } from '@/lib/meeting/e2ee/frame-proof';
import { hkdf } from '@/lib/meeting/e2ee/hkdf';
import { utf8, type Bytes } from '@/lib/meeting/e2ee/bytes';

const subtle = webcrypto.subtle;
const ROUNDS = Number(process.env.ROUNDS ?? 2000);
/** 720p at 30 frames/s and about 2.5 Mbit/s: 10.4 kB a frame on average. Opus: 50 frames/s of about 80 bytes. */
const STREAMS = [
  { name: '720p video', fps: 30, bytes: 10_400 },
  { name: 'audio (Opus)', fps: 50, bytes: 80 },
];
/** Batched: one signature per this many frames (video: ~100 ms; audio: 100 ms), over their SHA-256 hashes. */
const BATCH = { '720p video': 3, 'audio (Opus)': 5 } as Record<string, number>;

async function timeEach(rounds: number, work: (round: number) => Promise<unknown>): Promise<number> {
  for (let round = 0; round < 50; round += 1) await work(round);
  const started = performance.now();
  for (let round = 0; round < rounds; round += 1) await work(round);
  return (performance.now() - started) / rounds;
}

const ms = (value: number) => value.toFixed(3);

async function proofCosts() {
  const ecdsa = await generateFrameProofKey();
  const ecdsaPublic = await importFrameProofKey(ecdsa.publicKey);
  const ed = (await subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
  console.log('Sender proof: one sender, per second of media (Node WebCrypto, this machine)');
  console.log(
    'stream        | scheme                         | sign ms/frame | verify ms/frame | sender CPU ms/s | receiver CPU ms/s per sender | bytes/s added',
  );
  for (const stream of STREAMS) {
    const frame = webcrypto.getRandomValues(new Uint8Array(stream.bytes)) as Bytes;
    const signEcdsa = await timeEach(ROUNDS, () => proveFrame(ecdsa.privateKey, frame));
    const proven = await proveFrame(ecdsa.privateKey, frame);
    const verifyEcdsa = await timeEach(ROUNDS, () => checkFrame(ecdsaPublic, proven));
    const signEd = await timeEach(ROUNDS, () => subtle.sign('Ed25519', ed.privateKey, frame));
    const edSignature = await subtle.sign('Ed25519', ed.privateKey, frame);
    const verifyEd = await timeEach(ROUNDS, () => subtle.verify('Ed25519', ed.publicKey, edSignature, frame));
    const hash = await timeEach(ROUNDS, () => subtle.digest('SHA-256', frame));
    const batch = BATCH[stream.name]!;
    const rows = [
      { scheme: 'per frame, ECDSA P-256 (chosen)', sign: signEcdsa, verify: verifyEcdsa, bytes: FRAME_PROOF_LENGTH * stream.fps },
      { scheme: 'per frame, Ed25519', sign: signEd, verify: verifyEd, bytes: 64 * stream.fps },
      {
        // Every frame hashed; one ECDSA signature per batch over the hashes, carried by its last frame.
        scheme: `batched /${batch}, ECDSA + SHA-256`,
        sign: hash + signEcdsa / batch,
        verify: hash + verifyEcdsa / batch,
        bytes: (FRAME_PROOF_LENGTH * stream.fps) / batch,
      },
    ];
    for (const row of rows)
      console.log(
        `${stream.name.padEnd(13)} | ${row.scheme.padEnd(30)} | ${ms(row.sign).padStart(13)} | ${ms(row.verify).padStart(15)} | ${ms(row.sign * stream.fps).padStart(15)} | ${ms(row.verify * stream.fps).padStart(28)} | ${Math.round(row.bytes)}`,
      );
  }
  console.log(`Batched: a receiver holds up to ${BATCH['720p video']} video / ${BATCH['audio (Opus)']} audio frames (~100 ms) before it can drop a forgery.`);
}

/** N members with real pair secrets with member 0: what one member does when someone joins. */
async function scheduleCosts() {
  console.log('\nKey schedule: one join, per member (sealing to N-1 others measured with real pair secrets; messages counted)');
  console.log(
    'N   | fresh key: seals/member | fresh: member CPU ms | fresh: msgs via server | ratchet: member CPU ms | ratchet: msgs via server | leave (fresh): msgs',
  );
  for (const n of [10, 50, 100]) {
    const self = await generateEcdhKeyPair();
    const others = await Promise.all(Array.from({ length: n - 1 }, () => generateEcdhKeyPair()));
    const pairs = await Promise.all(others.map((other) => derivePairSecret(self.privateKey, other.publicKey)));
    const back = await Promise.all(others.map((other) => derivePairSecret(other.privateKey, self.publicKey)));
    const proof = (await generateFrameProofKey()).publicKey;
    // Fresh: a new key, sealed to every other member, and every other member's new key opened, installed for 3 slots.
    const fresh = await timeEach(5, async (round) => {
      const key = { ...generateSenderKey(round), proof };
      const boxes = await Promise.all(pairs.map((pair, index) => sealSenderKeyFor(pair, { roomId: 'r', senderId: 'self', receiverId: `p${index}` }, key)));
      await Promise.all(boxes.map((box, index) => openSenderKeyFrom(back[index]!, { roomId: 'r', senderId: 'self', receiverId: `p${index}` }, round, box)));
      await Promise.all(['audio', 'camera', 'screen'].flatMap((slot) => pairs.map(() => senderMediaBaseKey(key.key, slot))));
    });
    // Ratchet: our key and each held key move one step (HKDF), one box to the joiner, its key opened; the slots re-derived.
    const ratchet = await timeEach(5, async (round) => {
      const key = generateSenderKey(round);
      await Promise.all(pairs.map(() => hkdf(key.key, new Uint8Array(0), utf8('enclave sender ratchet'), 32)));
      const box = await sealSenderKeyFor(pairs[0]!, { roomId: 'r', senderId: 'self', receiverId: 'p0' }, { ...key, proof });
      await openSenderKeyFrom(back[0]!, { roomId: 'r', senderId: 'self', receiverId: 'p0' }, round, box);
      await Promise.all(['audio', 'camera', 'screen'].flatMap((slot) => pairs.map(() => senderMediaBaseKey(key.key, slot))));
    });
    const freshMessages = n * (n - 1);
    const ratchetMessages = 2 * (n - 1);
    const leaveMessages = (n - 1) * (n - 2);
    console.log(
      `${String(n).padEnd(3)} | ${String(n - 1).padStart(23)} | ${ms(fresh).padStart(20)} | ${String(freshMessages).padStart(22)} | ${ms(ratchet).padStart(22)} | ${String(ratchetMessages).padStart(24)} | ${leaveMessages}`,
    );
  }
  console.log('Time until everyone encrypts under the new key: fresh = quiet time (300 ms) + the boxes (CPU above + one relay) + the switch delay (1,000 ms);');
  console.log('ratchet = quiet time + 0 (those here step the keys they hold themselves, so a sender may switch at once).');
}

void proofCosts().then(scheduleCosts);
