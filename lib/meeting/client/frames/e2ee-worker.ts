// The frame-encryption worker (docs/e2ee-crypto.md "Browser APIs"): frames reach it through
// RTCRtpScriptTransform (Firefox, Safari) or as Chromium's encoded streams transferred from the
// page, so that no frame is encrypted or decrypted on the page's main thread. The work itself is
// in frame-worker-core.ts.
import type { TransformOptions, WorkerCommand } from './e2ee-worker-protocol';
import type { EncodedFrame } from './frame-types';
import { FrameWorkerCore } from './frame-worker-core';

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
const core = new FrameWorkerCore((reply) => scope.postMessage(reply));

scope.onmessage = (event) => void core.handle(event.data);
scope.onrtctransform = ({ transformer }) => core.pipe(transformer.options, transformer.readable, transformer.writable);
