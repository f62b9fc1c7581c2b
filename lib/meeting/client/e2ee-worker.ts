// Frame encryption in a worker, through RTCRtpScriptTransform (E2EE.md "Browser APIs"): the
// standard path, for browsers without Chromium's createEncodedStreams() (Firefox, Safari). The
// page sends each pairwise base key once; the SFrame keys, counters and replay windows live here,
// in the same keyring and transforms as the page path.
import type { TransformOptions, WorkerCommand } from './e2ee-worker-protocol';
import { decryptingTransform, encryptingTransform, FrameKeyring, type EncodedFrame } from './frame-transform';

interface ScriptTransformer {
  readable: ReadableStream<EncodedFrame>;
  writable: WritableStream<EncodedFrame>;
  options: TransformOptions;
}

// The worker's global scope, typed by hand (the project's lib is "dom", not "webworker").
interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerCommand>) => void) | null;
  onrtctransform: ((event: { transformer: ScriptTransformer }) => void) | null;
  postMessage(message: unknown): void;
}
const scope = self as unknown as WorkerScope;
const keyring = new FrameKeyring();

scope.onmessage = async (event) => {
  const command = event.data;
  switch (command.type) {
    case 'send-key':
      await keyring.setSendKey(command.peerId, command.slot, command.keyId, BigInt(command.kid), command.baseKey);
      break;
    case 'receive-key':
      await keyring.setReceiveKey(command.peerId, command.slot, BigInt(command.kid), command.baseKey);
      break;
    case 'withhold':
      keyring.withhold = command.withhold;
      break;
    case 'stats':
      scope.postMessage({ type: 'stats', requestId: command.requestId, stats: keyring.stats() });
      break;
  }
};

scope.onrtctransform = ({ transformer }: { transformer: ScriptTransformer }) => {
  const { peerId, slot, side, kind } = transformer.options;
  const counters = keyring.countersOf(peerId);
  const transform =
    side === 'send'
      ? encryptingTransform(kind, () => keyring.encryptor(peerId, slot), counters.sent)
      : decryptingTransform(kind, keyring.decryptor(peerId, slot), counters.received);
  void transformer.readable.pipeThrough(transform).pipeTo(transformer.writable).catch(() => {});
};
