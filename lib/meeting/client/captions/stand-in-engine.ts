// A recogniser for the tests (tests/e2e/meeting-captions.spec.ts): it "hears" what the test tells
// it to say and reports it as the on-device engine would, partial words first, then the line. Only
// the test probe (probe.ts, on servers with MEETING_TEST_PROBE=1) imports and installs it.
import type { CaptionEngine, CaptionEvents, EngineAvailability } from './engine';

export class StandInEngine implements CaptionEngine {
  readonly kind = 'stand-in';
  private events: CaptionEvents | null = null;
  /** How often start() was called: an unavailable engine must never be started. */
  starts = 0;

  constructor(private readonly answer: EngineAvailability = 'available') {}

  availability() {
    return Promise.resolve(this.answer);
  }

  prepare() {
    return Promise.resolve(this.answer !== 'unavailable');
  }

  start(_language: string, events: CaptionEvents) {
    this.starts += 1;
    this.events = events;
  }

  stop() {
    this.events = null;
  }

  /** Says a line: each word as a partial result, then the whole as the final one. False when not listening. */
  say(text: string): boolean {
    const events = this.events;
    if (!events) return false;
    const words = text.split(/\s+/).filter(Boolean);
    for (let count = 1; count < words.length; count++) events.partial(words.slice(0, count).join(' '));
    events.final(text);
    return true;
  }
}
