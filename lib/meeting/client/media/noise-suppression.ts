// Noise suppression on the microphone: RNNoise (a small recurrent network, compiled to
// WebAssembly by @sapphi-red/web-noise-suppressor) in an AudioWorklet, between the capture and a
// new track that replaces the capture on every link. Loaded only when it runs (useNoiseSuppression):
// the worklet (63 KB) and the wasm (154 KB) are build assets under /_next/static/media, hashed,
// which the service worker keeps after their first use (public/sw.js).
import { loadRnnoise, RnnoiseWorkletNode } from '@sapphi-red/web-noise-suppressor';
import type { TrackProcessor } from './track-processor';

// RNNoise works on 10 ms frames of 480 samples at 48 kHz; the worklet assumes that rate.
const SAMPLE_RATE = 48_000;
/** What lets a page start audio (user activation): a context still suspended retries on them. */
const GESTURES = ['pointerdown', 'keydown'] as const;

const workletUrl = () => new URL('@sapphi-red/web-noise-suppressor/rnnoiseWorklet.js', import.meta.url).href;

let wasm: Promise<ArrayBuffer> | null = null;

/** The SIMD build where the browser has WebAssembly SIMD (all current ones), fetched once per page. */
function loadWasm(): Promise<ArrayBuffer> {
  wasm ??= loadRnnoise({
    url: new URL('@sapphi-red/web-noise-suppressor/rnnoise.wasm', import.meta.url).href,
    simdUrl: new URL('@sapphi-red/web-noise-suppressor/rnnoise_simd.wasm', import.meta.url).href,
  }).catch((error: unknown) => {
    wasm = null;
    throw error;
  });
  return wasm;
}

/** The microphone's processor (track-processor.ts): mute acts on its track; the capture it reads stays the session's. */
export type NoiseSuppressor = TrackProcessor;

/**
 * The join's click lets the context start at once in Chromium. Safari, and Firefox without a
 * recent click, keep a context made outside a click suspended (it would send silence): it starts
 * on the person's next click or key, and until then the capture goes out as it is.
 */
function running(context: AudioContext, signal: AbortSignal): Promise<void> {
  if (context.state === 'running') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const retry = () => void context.resume().catch(() => undefined);
    const check = () => context.state === 'running' && finish(true);
    const aborted = () => finish(false);
    function finish(started: boolean) {
      context.removeEventListener('statechange', check);
      for (const type of GESTURES) window.removeEventListener(type, retry, true);
      signal.removeEventListener('abort', aborted);
      if (started) resolve();
      else reject(new DOMException('Noise suppression was turned off before it started', 'AbortError'));
    }
    if (signal.aborted) return finish(false);
    context.addEventListener('statechange', check);
    for (const type of GESTURES) window.addEventListener(type, retry, true);
    signal.addEventListener('abort', aborted);
    retry();
  });
}

/**
 * Feeds `source` through RNNoise; resolves once the filtered track is ready to send. `signal`
 * gives up a filter not started yet (turned off, another microphone, the call's end).
 */
export async function suppressNoise(source: MediaStreamTrack, signal: AbortSignal): Promise<NoiseSuppressor> {
  const context = new AudioContext({ sampleRate: SAMPLE_RATE, latencyHint: 'interactive' });
  try {
    const [wasmBinary] = await Promise.all([loadWasm(), context.audioWorklet.addModule(workletUrl())]);
    await running(context, signal);
    const input = context.createMediaStreamSource(new MediaStream([source]));
    const denoiser = new RnnoiseWorkletNode(context, { maxChannels: 1, wasmBinary });
    // One voice, one channel: a stereo capture is mixed down before the filter, which filters channel 0 only.
    denoiser.channelCount = 1;
    denoiser.channelCountMode = 'explicit';
    const output = context.createMediaStreamDestination();
    output.channelCount = 1;
    input.connect(denoiser).connect(output);
    const track = output.stream.getAudioTracks()[0]!;
    return {
      raw: source,
      track,
      stop() {
        track.stop();
        input.disconnect();
        denoiser.disconnect();
        denoiser.destroy();
        void context.close();
      },
    };
  } catch (error) {
    void context.close();
    throw error;
  }
}
