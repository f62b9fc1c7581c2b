// The audio a Node participant sends: a few seconds of a voice-like signal (a gliding tone with a
// syllable rhythm, so Opus DTX never goes silent) encoded once with opusscript (libopus in wasm,
// from the npm registry; no ffmpeg, no committed file), then looped. 20 ms frames, 48 kHz mono.
import OpusScript from 'opusscript';
import type { Bytes } from '@/lib/meeting/e2ee/bytes';

export const FRAME_MS = 20;
export const SAMPLES_PER_FRAME = (48_000 * FRAME_MS) / 1000;

export function opusFrames(seconds = 4, bitrate = 32_000): Bytes[] {
  const encoder = new OpusScript(48_000, 1, OpusScript.Application.VOIP);
  encoder.setBitrate(bitrate);
  const frames: Bytes[] = [];
  const pcm = Buffer.alloc(SAMPLES_PER_FRAME * 2);
  let phase = 0;
  for (let frame = 0; frame < (seconds * 1000) / FRAME_MS; frame += 1) {
    for (let i = 0; i < SAMPLES_PER_FRAME; i += 1) {
      const t = (frame * SAMPLES_PER_FRAME + i) / 48_000;
      const pitch = 180 + 60 * Math.sin(2 * Math.PI * 0.7 * t);
      const syllable = 0.55 + 0.45 * Math.sin(2 * Math.PI * 4 * t);
      phase += (2 * Math.PI * pitch) / 48_000;
      const sample = syllable * (0.6 * Math.sin(phase) + 0.25 * Math.sin(2 * phase) + 0.15 * Math.sin(3 * phase));
      pcm.writeInt16LE(Math.round(sample * 9000), i * 2);
    }
    frames.push(new Uint8Array(encoder.encode(pcm, SAMPLES_PER_FRAME)));
  }
  encoder.delete();
  return frames;
}

/**
 * What Opus with DTX sends for silence: a frame of comfort noise every DTX_INTERVAL frames
 * (400 ms) instead of 50 a second. Encoded from silence, so it is as small as libopus makes it.
 */
export const DTX_INTERVAL = 20;
export function silenceFrame(bitrate = 32_000): Bytes {
  const encoder = new OpusScript(48_000, 1, OpusScript.Application.VOIP);
  encoder.setBitrate(bitrate);
  const frame = new Uint8Array(encoder.encode(Buffer.alloc(SAMPLES_PER_FRAME * 2), SAMPLES_PER_FRAME));
  encoder.delete();
  return frame;
}
