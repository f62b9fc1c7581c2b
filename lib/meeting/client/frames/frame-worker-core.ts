// What the frame-encryption worker does (docs/e2ee-crypto.md "Frames"), apart from the worker's global scope
// so that it runs in Node's tests too: it keeps the SFrame keys, counters and nonces, and
// encrypts or decrypts the frames of every sender and receiver the page hands it, whether they
// arrive as RTCRtpScriptTransform events or as encoded streams transferred from the page.
import type { TransformOptions, WorkerCommand, WorkerReply, FrameSample } from './e2ee-worker-protocol';
import type { Slot } from '../links/slots';
import { decryptingTransform, encryptingTransform, FrameKeyring, type EncodedFrame, type FrameOpening, type FrameTap } from './frame-transform';

export class FrameWorkerCore {
  private readonly keyring = new FrameKeyring();
  private tap: FrameTap | null = null;
  /**
   * Receivers attached under a name that says which sender's keys open their frames now (the
   * SFU's, by mid): the decryptor and counters of that sender, found once per route, not per frame.
   */
  private readonly routes = new Map<string, FrameOpening>();

  constructor(private readonly reply: (message: WorkerReply) => void) {}

  async handle(command: WorkerCommand): Promise<void> {
    switch (command.type) {
      case 'send-key':
        return this.answer(command.requestId, () => this.keyring.setSendKey(command.peerId, command.slot, command.keyId, BigInt(command.kid), command.baseKey));
      case 'receive-key':
        return this.answer(command.requestId, () => this.keyring.setReceiveKey(command.peerId, command.slot, BigInt(command.kid), command.baseKey));
      case 'receive-chain':
        return this.answer(command.requestId, () => this.keyring.setReceiveChain(command.peerId, { generation: command.generation, key: command.key }));
      case 'drop-receive-key':
        return this.answer(command.requestId, () => this.keyring.dropReceiveKey(command.peerId, command.slot, BigInt(command.kid)));
      case 'frame-signer':
        return this.answer(command.requestId, () => this.keyring.setFrameSigner(command.peerId, command.privateKey));
      case 'frame-verifier':
        return this.answer(command.requestId, () => this.keyring.setFrameVerifier(command.peerId, command.publicKey));
      case 'route':
        this.routes.set(command.name, this.opening(command.peerId, command.slot));
        return this.reply({ type: 'done', requestId: command.requestId });
      case 'withhold':
        this.keyring.withhold = command.withhold;
        return this.reply({ type: 'done', requestId: command.requestId });
      case 'streams':
        return this.pipe(command.options, command.readable, command.writable);
      case 'stats':
        return this.reply({ type: 'stats', requestId: command.requestId, stats: this.keyring.stats() });
      case 'sample':
        return this.sample(command.requestId, command.count);
    }
  }

  /** Runs `work` and says whether it did: the page waits for the answer, so it must always get one. */
  private async answer(requestId: number, work: () => Promise<void>): Promise<void> {
    try {
      await work();
      this.reply({ type: 'done', requestId });
    } catch {
      this.reply({ type: 'failed', requestId });
    }
  }

  /** Every frame from `readable` is encrypted (or decrypted) into `writable`, or dropped. */
  pipe(options: TransformOptions, readable: ReadableStream<EncodedFrame>, writable: WritableStream<EncodedFrame>): void {
    const { peerId, slot, side, kind } = options;
    const transform =
      side === 'send'
        ? encryptingTransform(
            kind,
            () => this.keyring.encryptor(peerId, slot),
            this.keyring.countersOf(peerId).sent,
            () => this.tap,
            () => this.keyring.signer(peerId),
          )
        : this.openingTransform(kind, peerId, slot);
    void readable
      .pipeThrough(transform)
      .pipeTo(writable)
      .catch(() => {});
  }

  /** A mesh receiver opens with its own peer's keys for good; a routed one (the SFU's) with its route's now. */
  private openingTransform(kind: TransformOptions['kind'], name: string, slot: Slot) {
    const own = this.opening(name, slot);
    return decryptingTransform(kind, () => this.routes.get(name) ?? own);
  }

  private opening(peerId: string, slot: Slot): FrameOpening {
    return {
      decryptor: this.keyring.decryptor(peerId, slot),
      counters: this.keyring.countersOf(peerId).received,
      verifier: () => this.keyring.verifier(peerId),
    };
  }

  /** Answers with the next `count` frames of at least 64 bytes after the prefix that any sender seals. */
  private sample(requestId: number, count: number): void {
    const samples: FrameSample[] = [];
    this.tap = {
      take: (plain, sealed, prefix) => {
        if (samples.length >= count || plain.length - prefix < 64) return;
        samples.push({ plain: [...plain.subarray(prefix, prefix + 1024)], sealed: [...sealed.subarray(prefix, prefix + 1024)] });
        if (samples.length < count) return;
        this.tap = null;
        this.reply({ type: 'sample', requestId, samples });
      },
    };
  }
}
