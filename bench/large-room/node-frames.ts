// Frame encryption for a participant that runs in Node: the browser's keyring (frame-transform.ts)
// behind MeetingCrypto's FrameBackend interface, without a worker or encoded streams. The Node
// peer seals each Opus frame itself before it goes into RTP, and opens what browsers send.
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import type { SenderKey } from '@/lib/meeting/e2ee/sender-keys';
import { clearPrefixLength } from '@/lib/meeting/e2ee/frame';
import { checkFrame, proveFrame } from '@/lib/meeting/e2ee/frame-proof';
import type { FrameBackend, PeerCryptoStats } from '@/lib/meeting/client/frames/frame-backends';
import { FrameKeyring } from '@/lib/meeting/client/frames/frame-transform';
import type { Slot } from '@/lib/meeting/client/links/peer';

const OPUS_PREFIX = clearPrefixLength('opus', false);

export class NodeFrames implements FrameBackend {
  readonly rtcConfig = {};
  readonly keyring = new FrameKeyring();

  attachSender(): void {}
  attachReceiver(): void {}

  setSendKey(peerId: string, slot: Slot, keyId: string, kid: bigint, baseKey: Bytes): Promise<void> {
    return this.keyring.setSendKey(peerId, slot, keyId, kid, baseKey);
  }

  setReceiveKey(peerId: string, slot: Slot, kid: bigint, baseKey: Bytes): Promise<void> {
    return this.keyring.setReceiveKey(peerId, slot, kid, baseKey);
  }

  setReceiveChain(peerId: string, key: SenderKey): Promise<void> {
    return this.keyring.setReceiveChain(peerId, key);
  }

  dropReceiveKey(peerId: string, slot: Slot, kid: bigint): Promise<void> {
    return this.keyring.dropReceiveKey(peerId, slot, kid);
  }

  setFrameSigner(peerId: string, privateKey: CryptoKey): Promise<void> {
    return this.keyring.setFrameSigner(peerId, privateKey);
  }

  setFrameVerifier(peerId: string, publicKey: Bytes): Promise<void> {
    return this.keyring.setFrameVerifier(peerId, publicKey);
  }

  /** No transforms here: the Node peer names the sender of every frame it opens. */
  route(): Promise<void> {
    return Promise.resolve();
  }

  withhold(withhold: boolean): Promise<void> {
    this.keyring.withhold = withhold;
    return Promise.resolve();
  }

  stats(): Promise<Record<string, PeerCryptoStats>> {
    return Promise.resolve(this.keyring.stats());
  }

  sampleFrames(): Promise<never[]> {
    return Promise.resolve([]);
  }

  /** One Opus frame sealed for `peerId` (its TOC byte in clear), or null while there is no key. */
  async sealAudio(peerId: string, frame: Bytes): Promise<Bytes | null> {
    const encryptor = this.keyring.encryptor(peerId, 'audio');
    const counters = this.keyring.countersOf(peerId).sent;
    if (!encryptor) {
      counters.withheld += 1;
      return null;
    }
    const signer = this.keyring.signer(peerId);
    const encrypted = await encryptor.encrypt(frame, OPUS_PREFIX);
    const sealed = encrypted && signer ? await proveFrame(signer, encrypted) : encrypted;
    if (sealed) counters.encrypted += 1;
    return sealed;
  }

  /** An encrypted Opus frame from `peerId`, opened and counted as the browser's worker counts it. */
  async openAudio(peerId: string, data: Bytes): Promise<Bytes | null> {
    const counters = this.keyring.countersOf(peerId).received;
    const verifier = this.keyring.verifier(peerId);
    const proven = verifier ? await checkFrame(verifier, data) : data;
    if (!proven) {
      counters.failed.forged += 1;
      return null;
    }
    const opened = await this.keyring.decryptor(peerId, 'audio').open(proven, OPUS_PREFIX);
    if (!opened.ok) {
      counters.failed[opened.reason] += 1;
      return null;
    }
    counters.decrypted += 1;
    return opened.frame;
  }
}
