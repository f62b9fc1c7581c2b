// A WAV of speech with pauses and steady background noise, for Chromium's
// --use-file-for-fake-audio-capture: made at run time with espeak-ng (the voice) and sox (the
// format, the pauses, the pink noise, the mix), both from Debian (.ci/run installs them), so the
// repository carries no recording. Written once per machine into the temp folder; sox -R makes
// the noise the same on every run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PHRASES = ['Good morning, can everyone hear me?', 'Let us look at the numbers for this week.', 'Thank you, see you all tomorrow.'];
/** Silence after each phrase: the pauses where the receiver measures the noise. */
export const PAUSE_SECONDS = 2.5;
/** Pink noise at about -34 dBFS RMS, against speech normalised to -6 dBFS peak: a fan, a street. */
const NOISE_VOLUME = 0.08;
const VERSION = 1;

export function noisySpeechWav(): string {
  const target = path.join(os.tmpdir(), `enclave-noisy-speech-v${VERSION}.wav`);
  if (existsSync(target)) return target;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'noisy-speech-'));
  const file = (name: string) => path.join(dir, name);
  try {
    const parts = PHRASES.map((phrase, index) => {
      execFileSync('espeak-ng', ['-v', 'en', '-s', '160', '-w', file(`voice${index}.wav`), phrase]);
      // 48 kHz mono 16-bit, as the call's audio; a short lead-in and the pause after.
      execFileSync('sox', [
        file(`voice${index}.wav`),
        '-r',
        '48000',
        '-c',
        '1',
        '-b',
        '16',
        file(`part${index}.wav`),
        'norm',
        '-6',
        'pad',
        '0.3',
        String(PAUSE_SECONDS),
      ]);
      return file(`part${index}.wav`);
    });
    execFileSync('sox', [...parts, file('speech.wav')]);
    const seconds = execFileSync('soxi', ['-D', file('speech.wav')], { encoding: 'utf8' }).trim();
    execFileSync('sox', ['-R', '-n', '-r', '48000', '-c', '1', '-b', '16', file('noise.wav'), 'synth', seconds, 'pinknoise', 'vol', String(NOISE_VOLUME)]);
    execFileSync('sox', ['-m', '-v', '1', file('speech.wav'), '-v', '1', file('noise.wav'), file('noisy.wav')]);
    // Renamed into place whole: a parallel reader never sees half a file.
    renameSync(file('noisy.wav'), target);
    return target;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
