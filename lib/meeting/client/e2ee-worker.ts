// Frame encryption in a worker, through RTCRtpScriptTransform (E2EE.md "Browser APIs"): the
// standard path, for browsers without Chromium's createEncodedStreams() (Firefox, Safari). The
// page sends each pairwise base key once; the SFrame keys, counters and replay windows live here.
import { clearPrefixLength, FrameDecryptor, FrameEncryptor, type MediaCodec } from '@/lib/meeting/e2ee/frame';
import { deriveSFrameKey } from '@/lib/meeting/e2ee/sframe';
import type { WorkerCommand, TransformOptions } from './e2ee-worker-protocol';
import { newCounters, type FrameCounters } from './frame-counters';

type EncodedFrame = { data: ArrayBuffer; type?: 'key' | 'delta' | 'empty'; getMetadata?: () => { mimeType?: string } };
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

/** Every encryptor ever made, by the id the page gave it: a reconnect reuses one, never restarts its nonces. */
const encryptors = new Map<string, FrameEncryptor>();
const currentSender = new Map<string, string>();
const decryptors = new Map<string, FrameDecryptor>();
const counters = new Map<string, { sent: FrameCounters; received: FrameCounters }>();
let withhold = false;

const pathOf = (peerId: string, slot: string) => `${peerId}/${slot}`;
function countersOf(peerId: string) {
  let entry = counters.get(peerId);
  if (!entry) counters.set(peerId, (entry = { sent: newCounters(), received: newCounters() }));
  return entry;
}
function decryptorOf(peerId: string, slot: string) {
  let decryptor = decryptors.get(pathOf(peerId, slot));
  if (!decryptor) decryptors.set(pathOf(peerId, slot), (decryptor = new FrameDecryptor()));
  return decryptor;
}

function codecOf(kind: 'audio' | 'video', frame: EncodedFrame): MediaCodec {
  if (kind === 'audio') return 'opus';
  const mime = frame.getMetadata?.().mimeType?.toLowerCase();
  return !mime || mime === 'video/vp8' ? 'vp8' : 'unknown';
}

scope.onmessage = async (event) => {
  const command = event.data;
  switch (command.type) {
    case 'send-key': {
      if (!encryptors.has(command.keyId)) {
        encryptors.set(command.keyId, new FrameEncryptor(await deriveSFrameKey(command.baseKey, BigInt(command.kid))));
      }
      currentSender.set(pathOf(command.peerId, command.slot), command.keyId);
      break;
    }
    case 'receive-key':
      decryptorOf(command.peerId, command.slot).setKey(await deriveSFrameKey(command.baseKey, BigInt(command.kid)));
      break;
    case 'withhold':
      withhold = command.withhold;
      break;
    case 'stats':
      scope.postMessage({ type: 'stats', requestId: command.requestId, stats: Object.fromEntries(counters) });
      break;
  }
};

scope.onrtctransform = ({ transformer }: { transformer: ScriptTransformer }) => {
  const { peerId, slot, side, kind } = transformer.options;
  const count = countersOf(peerId);
  const transform: TransformStream<EncodedFrame, EncodedFrame> =
    side === 'send'
      ? new TransformStream<EncodedFrame, EncodedFrame>({
          async transform(frame, controller) {
            const keyId = currentSender.get(pathOf(peerId, slot));
            const encryptor = withhold || !keyId ? null : encryptors.get(keyId);
            if (!encryptor) {
              count.sent.withheld += 1;
              return;
            }
            const started = performance.now();
            const sealed = await encryptor
              .encrypt(new Uint8Array(frame.data), clearPrefixLength(codecOf(kind, frame), frame.type === 'key'))
              .catch(() => null);
            count.sent.busyMs += performance.now() - started;
            if (!sealed) return;
            frame.data = sealed.buffer;
            count.sent.encrypted += 1;
            controller.enqueue(frame);
          },
        })
      : new TransformStream<EncodedFrame, EncodedFrame>({
          async transform(frame, controller) {
            const prefix = clearPrefixLength(codecOf(kind, frame), frame.type === 'key');
            const started = performance.now();
            const opened = await decryptorOf(peerId, slot).open(new Uint8Array(frame.data), prefix);
            count.received.busyMs += performance.now() - started;
            if (!opened.ok) {
              count.received.failed[opened.reason] += 1;
              return;
            }
            frame.data = opened.frame.buffer;
            count.received.decrypted += 1;
            controller.enqueue(frame);
          },
        });
  void transformer.readable.pipeThrough(transform).pipeTo(transformer.writable).catch(() => {});
};
