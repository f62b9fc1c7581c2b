// Stand-ins for what frame encryption needs from a browser, for tests in Node: an RTCRtpSender or
// Receiver whose encoded streams are plain TransformStreams, and the worker's core run in this
// process behind the Worker interface.
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import type { WorkerPort } from '@/lib/meeting/client/frames/frame-backends';
import { FrameWorkerCore } from '@/lib/meeting/client/frames/frame-worker-core';

type Frame = { data: ArrayBuffer; type?: 'key' | 'delta' };

/** An RTCRtpSender or Receiver stand-in: frames written to `input` come out of `output`. */
export function fakeEndpoint() {
  const inbound = new TransformStream<Frame, Frame>();
  const outbound = new TransformStream<Frame, Frame>();
  const writer = inbound.writable.getWriter();
  const reader = outbound.readable.getReader();
  // A read that timed out is kept for the next call, so no frame is lost to it.
  let pending: Promise<Bytes | null> | null = null;
  const within = async (ms: number): Promise<Bytes | null> => {
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), ms));
    pending ??= reader.read().then((r) => (r.done ? null : new Uint8Array(r.value.data)));
    const won = await Promise.race([pending.then((frame) => ({ frame })), timeout]);
    if (!won) return null;
    pending = null;
    return won.frame;
  };
  return {
    endpoint: { createEncodedStreams: () => ({ readable: inbound.readable, writable: outbound.writable }) },
    send: (bytes: Bytes, type: Frame['type'] = 'delta') => writer.write({ data: bytes.slice().buffer, type }),
    /** The next frame out; null only if none comes within 5 s (crypto on a loaded machine is slow). */
    next: () => within(5000),
    /** The next frame out within 200 ms, or null: for frames that must be dropped. */
    nextSoon: () => within(200),
  };
}

/** The worker's core in this process: commands go in as they would by postMessage, replies come back as message events. */
export function inProcessWorker(): WorkerPort & { crash(): void } {
  const events = new EventTarget();
  const core = new FrameWorkerCore((reply) => events.dispatchEvent(Object.assign(new Event('message'), { data: reply })));
  let crashed = false;
  return {
    // Delivered in a later task, as by a real worker.
    postMessage: (command) =>
      setTimeout(() => {
        if (!crashed) void core.handle(command);
      }, 0),
    addEventListener: (type: string, listener: unknown) => events.addEventListener(type, listener as EventListener),
    /** As a worker whose script failed: nothing answers any more, and an "error" event says so. */
    crash: () => {
      crashed = true;
      events.dispatchEvent(new Event('error'));
    },
  };
}
