// What a page hears of the first peer's audio, after decoding and decryption: the noise
// suppression's test (meeting-noise.spec.ts) and the policy entry's (meeting-policy-entry.spec.ts)
// measure it the same way.
import type { Page } from '@playwright/test';

/** The power (dBFS) of each 1024-sample frame (21 ms) of the first peer's audio as `page` receives it, over `ms`. */
export function receivedFrames(page: Page, ms: number): Promise<number[]> {
  return page.evaluate(async (duration) => {
    const track = window.enclaveProbe!.getState().peers[0]!.tracks.audio!;
    const context = new AudioContext({ sampleRate: 48_000 });
    await context.resume();
    const source = context.createMediaStreamSource(new MediaStream([track]));
    // A ScriptProcessor sees every sample (an AnalyserNode polled by a timer would miss some).
    const meter = context.createScriptProcessor(1024, 1, 1);
    const silent = context.createGain();
    silent.gain.value = 0;
    const frames: number[] = [];
    meter.onaudioprocess = (event) => {
      const samples = event.inputBuffer.getChannelData(0);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      frames.push(10 * Math.log10(sum / samples.length + 1e-12));
    };
    source.connect(meter).connect(silent).connect(context.destination);
    await new Promise((resolve) => setTimeout(resolve, duration));
    await context.close();
    return frames;
  }, ms);
}

/** The value below which `p` % of `values` lie. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The microphone sent is the noise filter's output, a WebAudio destination's track (Chromium names it so), not a capture. */
export const sendsFiltered = (page: Page) => page.evaluate(() => window.enclaveProbe!.localTrack('audio')?.label === 'MediaStreamAudioDestinationNode');

/**
 * What `page` receives, for a failed hearing check to print: its peers and their audio tracks,
 * the frames each peer's key opened or failed to, the sender keys it holds, and the SFU's
 * inbound streams. Silence at -120 dBFS is a track without a single sample: the media never came,
 * or no frame opened.
 */
export function describeReception(page: Page) {
  return page.evaluate(async () => {
    const probe = window.enclaveProbe!;
    const peers = probe.getState().peers.map((peer) => {
      const audio = peer.tracks.audio;
      return {
        id: peer.id,
        name: peer.name,
        keys: peer.keys,
        media: peer.media,
        audio: audio && { readyState: audio.readyState, muted: audio.muted, enabled: audio.enabled },
      };
    });
    const [frames, keys, sfu] = await Promise.all([probe.encryptionStats(), probe.senderKeys(), probe.sfuStats()]);
    return { route: probe.mediaRoute(), peers, frames, keys, sfu: sfu.received, sfuMessages: probe.sfuMessages() };
  });
}
