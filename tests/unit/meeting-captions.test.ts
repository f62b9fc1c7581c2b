/** @jest-environment node */
// Issue 49 point 4 (docs/meetings.md "Captions"): the caption messages as a receiver checks them,
// the book that keeps each speaker's line and the transcript, the transcript's two formats, and
// the captions' state machine driven through the recogniser interface with the test's stand-in.
import { CaptionBook, RATE_BURST, TRANSCRIPT_MAX } from '@/lib/meeting/client/captions/caption-book';
import { cleanCaption, fitCaption, parseCaptionMessage, TEXT_MAX, type CaptionMessage } from '@/lib/meeting/client/captions/caption-messages';
import { Captions, LINGER_MS, PARTIAL_MS } from '@/lib/meeting/client/captions/captions';
import { CAPTIONS } from '@/lib/meeting/client/captions/captions-feature';
import type { CaptionEngine, CaptionEvents, EngineAvailability } from '@/lib/meeting/client/captions/engine';
import { StandInEngine } from '@/lib/meeting/client/captions/stand-in-engine';
import { clock, transcriptText, transcriptVtt } from '@/lib/meeting/client/captions/transcript';
import { CallFeatures, type FeatureContext } from '@/lib/meeting/client/call/features';
import { fanOut, featureContext } from '../support/feature-context';

const line = (n: number, text: string, final = false, lang = 'en-US'): CaptionMessage => ({ t: 'caption-line', n, final, lang, text });

describe('caption messages', () => {
  it.each<[string, unknown]>([
    ['a text over the limit', { t: 'caption-line', n: 0, final: true, lang: 'en', text: 'x'.repeat(TEXT_MAX + 1) }],
    ['an empty text', { t: 'caption-line', n: 0, final: true, lang: 'en', text: '' }],
    ['only invisible characters', { t: 'caption-line', n: 0, final: true, lang: 'en', text: '\u202e\u200b\n' }],
    ['a text that is not a string', { t: 'caption-line', n: 0, final: true, lang: 'en', text: ['a'] }],
    ['a language that is not a tag', { t: 'caption-line', n: 0, final: true, lang: 'en US', text: 'a' }],
    ['a long language', { t: 'caption-line', n: 0, final: true, lang: `en-${'a'.repeat(40)}`, text: 'a' }],
    ['a negative line', { t: 'caption-line', n: -1, final: true, lang: 'en', text: 'a' }],
    ['a fractional line', { t: 'caption-line', n: 0.5, final: true, lang: 'en', text: 'a' }],
    ['a line past safe integers', { t: 'caption-line', n: 2 ** 53, final: true, lang: 'en', text: 'a' }],
    ['final that is not a boolean', { t: 'caption-line', n: 0, final: 1, lang: 'en', text: 'a' }],
    ['another type', { t: 'caption-all', n: 0, final: true, lang: 'en', text: 'a' }],
    ['not an object', 'caption-line'],
    ['null', null],
  ])('refuses %s', (_case, raw) => {
    expect(parseCaptionMessage(raw)).toBeNull();
  });

  it('keeps a good line with its text cleaned, and "off"', () => {
    expect(parseCaptionMessage({ t: 'caption-line', n: 3, final: false, lang: 'zh-Hant-TW', text: ' a\u202e  b\u200b ', extra: 1 })).toEqual(
      line(3, 'a b', false, 'zh-Hant-TW'),
    );
    expect(parseCaptionMessage({ t: 'caption-off', text: 'ignored' })).toEqual({ t: 'caption-off' });
    expect(cleanCaption('x'.repeat(TEXT_MAX))).toHaveLength(TEXT_MAX);
  });

  it('cuts our own long line to its last TEXT_MAX characters, never inside a surrogate pair', () => {
    const long = `${'😀'.repeat(10)}${'a'.repeat(TEXT_MAX)}`;
    expect(Array.from(fitCaption(long))).toHaveLength(TEXT_MAX);
    expect(fitCaption(`${'😀'.repeat(TEXT_MAX + 1)}`)).toBe('😀'.repeat(TEXT_MAX));
  });
});

describe('the caption book', () => {
  it('shows the current line, keeps the final ones with their times, and refuses a line that already ended', () => {
    const book = new CaptionBook('me');
    expect(book.apply('ada', 'Ada', line(0, 'Hello'), 1000)).toBe('ok');
    expect(book.live.get('ada')).toEqual({ n: 0, text: 'Hello', lang: 'en-US', final: false });
    expect(book.apply('ada', 'Ada', line(0, 'Hello there', true), 2500)).toBe('ok');
    expect(book.transcript).toEqual([{ speaker: 'ada', name: 'Ada', lang: 'en-US', text: 'Hello there', start: 1000, end: 2500 }]);
    expect(book.apply('ada', 'Ada', line(0, 'Rewritten', true), 3000)).toBe('stale');
    expect(book.apply('ada', 'Ada', line(1, 'Next'), 3000)).toBe('ok');
    expect(book.expire('ada', 0)).toBe(false);
    expect(book.apply('ada', 'Ada', { t: 'caption-off' }, 3100)).toBe('ok');
    expect(book.live.has('ada')).toBe(false);
  });

  it('lets a final line expire unless a newer one replaced it; forgets a peer that left', () => {
    const book = new CaptionBook('me');
    book.apply('bo', 'Bo', line(0, 'One', true), 0);
    expect(book.expire('bo', 0)).toBe(true);
    book.apply('bo', 'Bo', line(1, 'Two', true), 0);
    expect(book.peerGone('bo')).toBe(true);
    expect(book.transcript.map((entry) => entry.text)).toEqual(['One', 'Two']);
  });

  it('drops a flood beyond the burst and lets the speaker go on as time passes; our own lines are not limited', () => {
    const book = new CaptionBook('me');
    const verdicts = Array.from({ length: RATE_BURST + 5 }, (_, n) => book.apply('bo', 'Bo', line(n, 'x'), 0));
    expect(verdicts.filter((verdict) => verdict === 'rate')).toHaveLength(5);
    expect(book.apply('bo', 'Bo', line(100, 'later'), 1000)).toBe('ok');
    expect(Array.from({ length: RATE_BURST * 2 }, (_, n) => book.apply('me', null, line(n, 'x'), 0)).every((verdict) => verdict === 'ok')).toBe(true);
  });

  it('keeps at most TRANSCRIPT_MAX lines, the newest', () => {
    const book = new CaptionBook('me');
    for (let n = 0; n < TRANSCRIPT_MAX + 3; n++) book.apply('me', null, line(n, `line ${n}`, true), n);
    expect(book.transcript).toHaveLength(TRANSCRIPT_MAX);
    expect(book.transcript[0]!.text).toBe('line 3');
  });
});

describe('the transcript', () => {
  const lines = [
    { speaker: 'me', name: null, lang: 'en-US', text: 'Welcome, all', start: 10_000, end: 12_500 },
    { speaker: 'bo', name: 'Bo <Boss> & co', lang: 'de-DE', text: 'a --> b <i>', start: 3_733_000, end: 3_733_000 },
  ];

  it('clocks hours, minutes, seconds and ms', () => {
    expect(clock(3_723_004)).toBe('01:02:03.004');
    expect(clock(59_999, false)).toBe('00:00:59');
  });

  it('as text: a clock from the first line, the speaker, the language, the words', () => {
    expect(transcriptText(lines, 'Ada')).toBe('[00:00:00] Ada (en-US): Welcome, all\n[01:02:03] Bo <Boss> & co (de-DE): a --> b <i>\n');
  });

  it('as WebVTT: one cue a line, at least a second long, with voice and language, escaped', () => {
    expect(transcriptVtt(lines, 'Ada')).toBe(
      'WEBVTT\n\n' +
        '1\n00:00:00.000 --> 00:00:02.500\n<v Ada><lang en-US>Welcome, all</lang>\n\n' +
        '2\n01:02:03.000 --> 01:02:04.000\n<v Bo &lt;Boss&gt; &amp; co><lang de-DE>a --&gt; b &lt;i&gt;</lang>\n',
    );
    expect(transcriptVtt([], 'Ada')).toBe('WEBVTT\n');
  });
});

/** Captions on a page with `peers`, every message sent kept, a clock the test moves. */
function page(engine: CaptionEngine, peers = [{ id: 'bo', name: 'Bo' }]) {
  const sent: [string, CaptionMessage][] = [];
  const state = { muted: false, now: 0 };
  const captions = new Captions(
    fanOut({
      selfId: 'me',
      peers: () => peers,
      send: (to, message) => (sent.push([to, message]), true),
      microphone: () => null,
      muted: () => state.muted,
      language: 'en-US',
      engine,
      now: () => state.now,
    }),
  );
  return { captions, sent, state };
}
const settle = () => new Promise((resolve) => jest.requireActual<typeof globalThis>('timers').setImmediate(resolve));

describe('captions on a page', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('where the engine is unavailable, says so and starts nothing and sends nothing', async () => {
    const engine = new StandInEngine('unavailable');
    const { captions, sent } = page(engine);
    expect(captions.getSnapshot().own).toBe('checking');
    await settle();
    expect(captions.getSnapshot().own).toBe('unavailable');
    expect(await captions.startOwn()).toBe('unavailable');
    expect(engine.starts).toBe(0);
    expect(engine.say('anything')).toBe(false);
    expect(sent).toEqual([]);
  });

  it('downloads a model first where the engine needs one, and stays unavailable when that fails', async () => {
    const answers: EngineAvailability[] = ['downloadable', 'downloadable', 'available'];
    const engine: CaptionEngine & { starts: number } = {
      kind: 'test',
      starts: 0,
      availability: async () => answers.shift() ?? 'available',
      prepare: async () => true,
      start() {
        engine.starts += 1;
      },
      stop: () => undefined,
    };
    const { captions } = page(engine);
    await settle();
    expect(captions.getSnapshot().own).toBe('downloadable');
    expect(await captions.startOwn()).toBe('on');
    expect(engine.starts).toBe(1);

    const start = jest.fn();
    const failing = page({ kind: 'x', availability: async () => 'downloadable', prepare: async () => false, start, stop: () => undefined });
    expect(await failing.captions.startOwn()).toBe('unavailable');
    expect(start).not.toHaveBeenCalled();
  });

  it('sends the first partial at once, throttles the next ones, and lets the final replace what waits', async () => {
    const engine = new StandInEngine();
    const { captions, sent } = page(engine);
    await captions.startOwn();
    engine.say('one two three four');
    expect(sent).toEqual([
      ['bo', line(0, 'one')],
      ['bo', line(0, 'one two three four', true)],
    ]);
    // Partials over time: one per PARTIAL_MS at most, the newest words.
    let events: CaptionEvents | null = null;
    const recorder: CaptionEngine = {
      kind: 'r',
      availability: async () => 'available',
      prepare: async () => true,
      start: (_l, e) => void (events = e),
      stop: () => undefined,
    };
    const second = page(recorder);
    await second.captions.startOwn();
    events!.partial('a');
    events!.partial('a b');
    events!.partial('a b c');
    expect(second.sent.map(([, message]) => message)).toEqual([line(0, 'a')]);
    second.state.now = PARTIAL_MS;
    jest.advanceTimersByTime(PARTIAL_MS);
    expect(second.sent.map(([, message]) => message)).toEqual([line(0, 'a'), line(0, 'a b c')]);
    expect(captions.getSnapshot().live.me).toEqual({ n: 0, text: 'one two three four', lang: 'en-US', final: true });
  });

  it('sends nothing while muted', async () => {
    const engine = new StandInEngine();
    const { captions, sent, state } = page(engine);
    await captions.startOwn();
    state.muted = true;
    engine.say('private words');
    expect(sent).toEqual([]);
  });

  it('stopping tells the others "off"; an engine error stops it and says why', async () => {
    let events: CaptionEvents | null = null;
    const engine: CaptionEngine = {
      kind: 'r',
      availability: async () => 'available',
      prepare: async () => true,
      start: (_l, e) => void (events = e),
      stop: jest.fn(),
    };
    const { captions, sent } = page(engine);
    await captions.startOwn();
    captions.stopOwn();
    expect(sent).toEqual([['bo', { t: 'caption-off' }]]);
    expect(captions.getSnapshot().own).toBe('off');
    await captions.startOwn();
    events!.error('failed');
    expect(captions.getSnapshot().own).toBe('failed');
    expect(engine.stop).toHaveBeenCalledTimes(2);
    // Late words from the stopped recogniser are not sent.
    events!.final('late');
    expect(sent.filter(([, message]) => message.t === 'caption-line')).toEqual([]);
  });

  it('shows a peer’s line, drops hostile messages, and takes a final line off the screen after LINGER_MS', async () => {
    const { captions } = page(new StandInEngine());
    captions.receive('bo', line(0, 'Hi', true, 'de-DE'));
    captions.receive('bo', { t: 'caption-line', n: 1, final: true, lang: 'de', text: 'x'.repeat(TEXT_MAX + 1) });
    captions.receive('bo', line(0, 'again', true));
    expect(captions.dropped).toBe(2);
    expect(captions.getSnapshot().live.bo?.text).toBe('Hi');
    expect(captions.transcript()).toEqual([{ speaker: 'bo', name: 'Bo', lang: 'de-DE', text: 'Hi', start: 0, end: 0 }]);
    jest.advanceTimersByTime(LINGER_MS);
    expect(captions.getSnapshot().live.bo).toBeUndefined();
    captions.setShow(false);
    expect(captions.getSnapshot().show).toBe(false);
  });
});

describe('the captions feature', () => {
  it('takes caption-* messages from the call and loads the captions on the first one', async () => {
    const ctx: FeatureContext = featureContext({
      selfId: 'me',
      fileLimit: 1,
      peers: () => [{ id: 'bo', name: 'Bo' }],
      send: () => true,
      openChannel: async () => null,
      isHost: () => false,
      selfIsHost: () => false,
      setApart: () => undefined,
      inAnotherRoom: () => false,
    });
    const features = new CallFeatures(ctx);
    const feature = features.use(CAPTIONS);
    feature.useEngine(new StandInEngine());
    const loaded = new Promise<import('@/lib/meeting/client/captions/captions').Captions>((resolve) => feature.onLoaded(resolve));
    expect(features.receive('bo', line(0, 'Hello', true))).toBe(true);
    expect(features.receive('bo', { t: 'chat' })).toBe(false);
    const captions = await loaded;
    await new Promise((resolve) => setImmediate(resolve));
    expect(captions.getSnapshot().live.bo?.text).toBe('Hello');
    features.peerGone('bo');
    await new Promise((resolve) => setImmediate(resolve));
    expect(captions.getSnapshot().live.bo).toBeUndefined();
    features.close();
  });

  it('keeps captions inside our breakout room: nothing to a peer in another room, nothing shown from one', async () => {
    const sent: string[] = [];
    const ctx: FeatureContext = featureContext({
      selfId: 'me',
      fileLimit: 1,
      peers: () => [
        { id: 'bo', name: 'Bo' },
        { id: 'cy', name: 'Cy' },
      ],
      send: (to) => (sent.push(to), true),
      openChannel: async () => null,
      isHost: () => false,
      selfIsHost: () => false,
      setApart: () => undefined,
      inAnotherRoom: (peerId) => peerId === 'cy',
    });
    const features = new CallFeatures(ctx);
    const feature = features.use(CAPTIONS);
    const engine = new StandInEngine();
    feature.useEngine(engine);
    // Until the call screen says otherwise, the feature takes us for muted and sends nothing.
    feature.setLocal({ microphone: () => null, muted: () => false, language: 'en-US' });
    const captions = await feature.load();
    await captions.startOwn();
    engine.say('room talk');
    expect(new Set(sent)).toEqual(new Set(['bo']));
    features.receive('cy', line(0, 'from the other room', true));
    features.receive('bo', line(0, 'from ours', true));
    expect(captions.transcript().map((entry) => entry.text)).toEqual(['room talk', 'from ours']);
    features.close();
  });
});
