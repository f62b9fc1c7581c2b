// The host's transcript, made in the browser and saved as a file there (docs/meetings.md
// "Captions"): nothing goes to the server. Plain text with a clock per line, or WebVTT cues with
// the speaker as the cue's voice, times from the first line.
import type { TranscriptLine } from './caption-book';

/** "hh:mm:ss.mmm" from ms. */
export function clock(ms: number, withMs = true): string {
  const total = Math.max(0, Math.round(ms));
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor(total / 60_000) % 60;
  const seconds = Math.floor(total / 1000) % 60;
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}${withMs ? `.${pad(total % 1000, 3)}` : ''}`;
}

const speakerOf = (line: TranscriptLine, selfName: string) => (line.name === null ? selfName : line.name || '?');

/** "[00:01:02] Ada (en-US): Hello" per line. */
export function transcriptText(lines: readonly TranscriptLine[], selfName: string): string {
  const origin = lines[0]?.start ?? 0;
  return lines.map((line) => `[${clock(line.start - origin, false)}] ${speakerOf(line, selfName)} (${line.lang}): ${line.text}\n`).join('');
}

/** WebVTT's text escapes; "-->" cannot appear in a cue once ">" is escaped. */
const vttEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A WebVTT file: one cue per line, `<v Speaker>` and `<lang>` around the words. */
export function transcriptVtt(lines: readonly TranscriptLine[], selfName: string): string {
  const origin = lines[0]?.start ?? 0;
  const cues = lines.map((line, index) => {
    // A cue lasts at least a second, so a line said at once is still shown.
    const end = Math.max(line.end, line.start + 1000);
    return `${index + 1}\n${clock(line.start - origin)} --> ${clock(end - origin)}\n<v ${vttEscape(speakerOf(line, selfName))}><lang ${line.lang}>${vttEscape(line.text)}</lang>\n`;
  });
  return ['WEBVTT\n', ...cues].join('\n');
}
