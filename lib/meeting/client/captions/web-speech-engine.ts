// The browser's speech recognition, on the device only (docs/meetings.md "Captions"): Chromium's
// SpeechRecognition with `processLocally = true` and the on-device availability check
// (SpeechRecognition.available / install, Chrome 139+). Where any of that is missing, or the
// language's on-device model is not there, the answer is "unavailable" and nothing starts: the
// engine never falls back to the browser's cloud recognition, so no audio leaves the device.
import type { CaptionEngine, CaptionEvents, EngineAvailability } from './engine';

interface Alternative {
  transcript: string;
}
interface RecognitionResult {
  readonly isFinal: boolean;
  readonly [index: number]: Alternative | undefined;
}
interface RecognitionEvent {
  resultIndex: number;
  results: ArrayLike<RecognitionResult>;
}
interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  processLocally?: boolean;
  onresult: ((event: RecognitionEvent) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(track?: MediaStreamTrack): void;
  stop(): void;
  abort(): void;
}
type OnDevice = { langs: string[]; processLocally: true };
interface RecognitionClass {
  new (): Recognition;
  prototype: object;
  available?(options: OnDevice): Promise<string>;
  install?(options: OnDevice): Promise<boolean>;
}

function recognitionClass(): RecognitionClass | null {
  const scope = globalThis as unknown as { SpeechRecognition?: RecognitionClass; webkitSpeechRecognition?: RecognitionClass };
  const found = scope.SpeechRecognition ?? scope.webkitSpeechRecognition ?? null;
  // Without `processLocally` the browser may send the audio to its cloud service: not used at all.
  return found && typeof found.available === 'function' && 'processLocally' in found.prototype ? found : null;
}

/** Errors that say on-device recognition cannot run here (the rest stop a running one). */
const UNAVAILABLE = new Set(['language-not-supported', 'service-not-allowed', 'not-allowed', 'audio-capture']);
/** A recogniser that ends sooner than this after its start is not restarted (it would spin). */
const RESTART_AFTER_MS = 2000;

export class WebSpeechEngine implements CaptionEngine {
  readonly kind = 'web-speech';
  private recognition: Recognition | null = null;

  async availability(language: string): Promise<EngineAvailability> {
    const Recognition = recognitionClass();
    if (!Recognition) return 'unavailable';
    try {
      const answer = await Recognition.available!({ langs: [language], processLocally: true });
      if (answer === 'available') return 'available';
      return (answer === 'downloadable' || answer === 'downloading') && typeof Recognition.install === 'function' ? 'downloadable' : 'unavailable';
    } catch {
      return 'unavailable';
    }
  }

  async prepare(language: string): Promise<boolean> {
    const Recognition = recognitionClass();
    try {
      return Boolean(Recognition?.install && (await Recognition.install({ langs: [language], processLocally: true })));
    } catch {
      return false;
    }
  }

  start(language: string, events: CaptionEvents, microphone: MediaStreamTrack | null) {
    this.stop();
    const Recognition = recognitionClass();
    if (!Recognition) return events.error('unavailable');
    const recognition = new Recognition();
    recognition.processLocally = true;
    // Read back: a browser that ignores the flag would recognise in its cloud.
    if (recognition.processLocally !== true) return events.error('unavailable');
    recognition.lang = language;
    recognition.continuous = true;
    recognition.interimResults = true;
    let failed: 'unavailable' | 'failed' | null = null;
    let startedAt = 0;
    recognition.onresult = (event) => {
      let partial = '';
      for (let index = event.resultIndex; index < event.results.length; index++) {
        const result = event.results[index]!;
        const text = result[0]?.transcript ?? '';
        if (result.isFinal) events.final(text);
        else partial += text;
      }
      if (partial) events.partial(partial);
    };
    recognition.onerror = ({ error }) => {
      // Silence and our own stop are not failures: the recogniser ends and starts again.
      if (error === 'no-speech' || error === 'aborted') return;
      failed = UNAVAILABLE.has(error) ? 'unavailable' : 'failed';
    };
    const begin = () => {
      startedAt = Date.now();
      // The call's microphone track where the browser takes one (Chrome 135+); older ones ignore it.
      if (microphone?.readyState === 'live') recognition.start(microphone);
      else recognition.start();
    };
    // Chromium ends continuous recognition after a while of silence: it goes on until stop().
    recognition.onend = () => {
      if (this.recognition !== recognition) return;
      if (!failed && Date.now() - startedAt >= RESTART_AFTER_MS) {
        try {
          return begin();
        } catch {
          failed = 'failed';
        }
      }
      this.recognition = null;
      events.error(failed ?? 'failed');
    };
    this.recognition = recognition;
    try {
      begin();
    } catch {
      this.recognition = null;
      events.error('failed');
    }
  }

  stop() {
    const recognition = this.recognition;
    this.recognition = null;
    recognition?.abort();
  }
}
