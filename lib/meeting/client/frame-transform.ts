// Frame encryption on the page, for one RTCRtpSender or RTCRtpReceiver (E2EE.md "Frames"):
// Chromium's createEncodedStreams() with `encodedInsertableStreams: true`, so a frame that has no
// key yet is dropped, never sent or decoded in clear (fail-closed). The worker path is
// e2ee-worker.ts; frame-backends.ts picks one.
import { clearPrefixLength, FrameDecryptor, FrameEncryptor, type MediaCodec } from '@/lib/meeting/e2ee/frame';
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import type { FrameCounters } from './frame-counters';


type EncodedFrame = { data: ArrayBuffer; type?: 'key' | 'delta' | 'empty'; getMetadata?: () => { mimeType?: string } };
type EncodedStreams = { readable: ReadableStream<EncodedFrame>; writable: WritableStream<EncodedFrame> };
type WithEncodedStreams = { createEncodedStreams?: () => EncodedStreams };

function codecOf(kind: 'audio' | 'video', frame: EncodedFrame): MediaCodec {
  if (kind === 'audio') return 'opus';
  const mime = frame.getMetadata?.().mimeType?.toLowerCase();
  // VP8 is preferred by setCodecPreferences; a frame without a mime type is from that codec too.
  return !mime || mime === 'video/vp8' ? 'vp8' : 'unknown';
}

/** A tap on the frames a sender encrypts: (clear, encrypted) pairs, for the ciphertext proof. */
export interface FrameTap {
  take(plain: Bytes, sealed: Bytes, prefix: number): void;
}

const attached = new WeakSet<object>();

/** Encrypts every frame of a sender with the encryptor `current()` gives, or drops it. */
export function encryptSender(
  sender: RTCRtpSender,
  kind: 'audio' | 'video',
  current: () => FrameEncryptor | null,
  counters: FrameCounters,
  tap?: () => FrameTap | null,
): void {
  if (attached.has(sender)) return;
  attached.add(sender);
  const streams = (sender as unknown as WithEncodedStreams).createEncodedStreams!();
  const transform = new TransformStream<EncodedFrame, EncodedFrame>({
    async transform(frame, controller) {
      const encryptor = current();
      if (!encryptor) {
        counters.withheld += 1;
        return;
      }
      const plain = new Uint8Array(frame.data);
      const prefix = clearPrefixLength(codecOf(kind, frame), frame.type === 'key');
      const started = performance.now();
      const sealed = await encryptor.encrypt(plain, prefix).catch(() => null);
      counters.busyMs += performance.now() - started;
      if (!sealed) return;
      tap?.()?.take(plain, sealed, prefix);
      frame.data = sealed.buffer;
      counters.encrypted += 1;
      controller.enqueue(frame);
    },
  });
  void streams.readable.pipeThrough(transform).pipeTo(streams.writable).catch(() => {});
}

/** Decrypts every frame of a receiver; a frame that does not open is dropped and counted. */
export function decryptReceiver(
  receiver: RTCRtpReceiver,
  kind: 'audio' | 'video',
  decryptor: FrameDecryptor,
  counters: FrameCounters,
): void {
  if (attached.has(receiver)) return;
  attached.add(receiver);
  const streams = (receiver as unknown as WithEncodedStreams).createEncodedStreams!();
  const transform = new TransformStream<EncodedFrame, EncodedFrame>({
    async transform(frame, controller) {
      const data = new Uint8Array(frame.data);
      const prefix = clearPrefixLength(codecOf(kind, frame), frame.type === 'key');
      const started = performance.now();
      const opened = await decryptor.open(data, prefix);
      counters.busyMs += performance.now() - started;
      if (!opened.ok) {
        counters.failed[opened.reason] += 1;
        return;
      }
      frame.data = opened.frame.buffer;
      counters.decrypted += 1;
      controller.enqueue(frame);
    },
  });
  void streams.readable.pipeThrough(transform).pipeTo(streams.writable).catch(() => {});
}
