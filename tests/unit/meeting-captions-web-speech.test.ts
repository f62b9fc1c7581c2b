/** @jest-environment node */
// The browser's recogniser behind the captions' interface (lib/meeting/client/captions/web-speech-engine.ts),
// against a fake SpeechRecognition: on the device only — without `processLocally` or the on-device
// availability check the answer is "unavailable" and nothing is constructed or started; never the cloud.
import type { CaptionEvents } from '@/lib/meeting/client/captions/engine';
import { WebSpeechEngine } from '@/lib/meeting/client/captions/web-speech-engine';

type Fake = {
  processLocally?: boolean;
  lang?: string;
  continuous?: boolean;
  interimResults?: boolean;
  onresult?: (event: unknown) => void;
  onerror?: (event: { error: string }) => void;
  onend?: () => void;
  started: unknown[];
};

function install(options: { available?: string | null; install?: boolean | null; processLocally?: 'kept' | 'dropped' | 'absent' }) {
  const made: Fake[] = [];
  class FakeRecognition {
    started: unknown[] = [];
    constructor() {
      made.push(this as unknown as Fake);
    }
    start(...args: unknown[]) {
      this.started.push(args[0] ?? 'default microphone');
    }
    stop() {}
    abort() {}
  }
  if (options.processLocally !== 'absent') {
    let value = false;
    Object.defineProperty(FakeRecognition.prototype, 'processLocally', {
      get: () => value,
      set: (next: boolean) => void (value = options.processLocally === 'dropped' ? false : next),
      configurable: true,
    });
  }
  const calls: unknown[] = [];
  if (options.available !== null)
    Object.assign(FakeRecognition, { available: async (o: unknown) => (calls.push(['available', o]), options.available ?? 'available') });
  if (options.install !== null) Object.assign(FakeRecognition, { install: async (o: unknown) => (calls.push(['install', o]), options.install ?? true) });
  (globalThis as Record<string, unknown>).webkitSpeechRecognition = FakeRecognition;
  return { made, calls };
}

function events() {
  const heard: string[] = [];
  const sink: CaptionEvents = {
    partial: (text) => void heard.push(`partial ${text}`),
    final: (text) => void heard.push(`final ${text}`),
    error: (reason) => void heard.push(`error ${reason}`),
  };
  return { heard, sink };
}

afterEach(() => {
  delete (globalThis as Record<string, unknown>).webkitSpeechRecognition;
});

describe('the Web Speech engine', () => {
  it('is unavailable without the API, without processLocally, or without the availability check', async () => {
    expect(await new WebSpeechEngine().availability('en-US')).toBe('unavailable');
    install({ processLocally: 'absent' });
    expect(await new WebSpeechEngine().availability('en-US')).toBe('unavailable');
    install({ available: null });
    expect(await new WebSpeechEngine().availability('en-US')).toBe('unavailable');
  });

  it('asks for on-device recognition only, and maps the answers', async () => {
    const { calls } = install({ available: 'downloadable' });
    expect(await new WebSpeechEngine().availability('de-DE')).toBe('downloadable');
    expect(calls).toEqual([['available', { langs: ['de-DE'], processLocally: true }]]);
    install({ available: 'downloading' });
    expect(await new WebSpeechEngine().availability('de-DE')).toBe('downloadable');
    install({ available: 'downloadable', install: null });
    expect(await new WebSpeechEngine().availability('de-DE')).toBe('unavailable');
    install({ available: 'unavailable' });
    expect(await new WebSpeechEngine().availability('de-DE')).toBe('unavailable');
    const installing = install({ install: false });
    expect(await new WebSpeechEngine().prepare('fr-FR')).toBe(false);
    expect(installing.calls).toEqual([['install', { langs: ['fr-FR'], processLocally: true }]]);
  });

  it('starts with processLocally set, continuous, with partial results, and reports them', () => {
    const { made } = install({});
    const { heard, sink } = events();
    const engine = new WebSpeechEngine();
    engine.start('en-US', sink, null);
    const recognition = made[0]!;
    expect(recognition).toMatchObject({ processLocally: true, lang: 'en-US', continuous: true, interimResults: true, started: ['default microphone'] });
    const result = (text: string, isFinal: boolean) => Object.assign([{ transcript: text }], { isFinal });
    recognition.onresult!({ resultIndex: 0, results: [result('Hello', true), result(' wor', false), result('ld', false)] });
    expect(heard).toEqual(['final Hello', 'partial  world']);
    recognition.onerror!({ error: 'language-not-supported' });
    recognition.onend!();
    expect(heard.at(-1)).toBe('error unavailable');
  });

  it('starts nothing where the browser ignores processLocally (it would recognise in its cloud)', () => {
    const { made } = install({ processLocally: 'dropped' });
    const { heard, sink } = events();
    new WebSpeechEngine().start('en-US', sink, null);
    expect(made[0]!.started).toEqual([]);
    expect(heard).toEqual(['error unavailable']);
  });
});
