// Captions in the call (docs/meetings.md "Captions"): each participant who turns them on captions
// its own microphone on the device (engine.ts) and sends the text, sealed over the pairs' main
// channels, to the others; every page shows each speaker's current line under their tile and
// keeps the final lines for the host's transcript. Loaded the first time someone opens "Captions"
// or a caption arrives (captions-feature.ts). No audio and no text goes to the server.
import { CaptionBook, type LiveLine, type TranscriptLine } from './caption-book';
import { fitCaption, parseCaptionMessage, type CaptionMessage } from './caption-messages';
import type { CaptionEngine } from './engine';
import { WebSpeechEngine } from './web-speech-engine';

/** Partial results go out at most this often (the recogniser gives one per word or more). */
export const PARTIAL_MS = 300;
/** A final line stays under the tile this long, unless the speaker goes on. */
export const LINGER_MS = 6000;

/** Our microphone's captioning: 'unavailable' says on-device recognition cannot run here (nothing is started, nothing sent). */
export type OwnCaptions = 'checking' | 'off' | 'downloadable' | 'preparing' | 'on' | 'unavailable' | 'failed';

export interface CaptionsView {
  own: OwnCaptions;
  /** The language we speak, as a BCP 47 tag. */
  language: string;
  /** Whether this page shows captions under the tiles (each viewer decides). */
  show: boolean;
  /** Each speaker's current line, ours included, by participant id. */
  live: Record<string, LiveLine>;
  transcriptLines: number;
}

export interface CaptionsHooks {
  selfId: string;
  peers(): { id: string; name: string }[];
  send(peerId: string, message: CaptionMessage): boolean;
  /** To every peer of peers(), sealed once through the SFU for those who hear us there (call/features.ts sendToAll). */
  sendToAll(message: CaptionMessage): void;
  /** The call's microphone track (the engine listens to it where it can), and whether we are muted (nothing is sent then). */
  microphone(): MediaStreamTrack | null;
  muted(): boolean;
  language: string;
  engine?: CaptionEngine;
  now?(): number;
}

export class Captions {
  private readonly book: CaptionBook;
  private engine: CaptionEngine;
  private view: CaptionsView;
  private readonly listeners = new Set<() => void>();
  /** Our next line's number, and the partial waiting for the throttle. */
  private line = 0;
  private pending: string | null = null;
  private lastPartial = -Infinity;
  private partialTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly lingering = new Map<string, ReturnType<typeof setTimeout>>();
  /** Bumped on every start, stop or language change: an answer for an older one is ignored. */
  private generation = 0;
  /** Messages dropped as malformed, stale or over the rate, for the probe and the tests. */
  dropped = 0;

  constructor(private readonly hooks: CaptionsHooks) {
    this.book = new CaptionBook(hooks.selfId);
    this.engine = hooks.engine ?? new WebSpeechEngine();
    this.view = { own: 'checking', language: hooks.language, show: true, live: {}, transcriptLines: 0 };
    void this.check();
  }

  // ---- for React (useSyncExternalStore) ----
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  getSnapshot = () => this.view;

  transcript(): readonly TranscriptLine[] {
    return this.book.transcript;
  }

  setShow(show: boolean) {
    this.publish({ show });
  }

  setLanguage(language: string) {
    if (language === this.view.language) return;
    const wasOn = this.view.own === 'on';
    this.stopOwn();
    this.view = { ...this.view, language };
    void this.check().then(() => (wasOn && this.view.own !== 'unavailable' ? this.startOwn() : undefined));
  }

  /** Another engine (the test probe's stand-in): whatever ran stops, and it is asked afresh. */
  setEngine(engine: CaptionEngine) {
    this.stopOwn();
    this.engine = engine;
    void this.check();
  }

  /** Starts captioning our microphone: downloads the on-device model first where the engine needs one; never anything else. */
  async startOwn(): Promise<OwnCaptions> {
    if (this.view.own === 'on' || this.view.own === 'preparing') return this.view.own;
    const generation = ++this.generation;
    const { language } = this.view;
    let availability = await this.engine.availability(language);
    if (generation !== this.generation) return this.view.own;
    if (availability === 'downloadable') {
      this.publish({ own: 'preparing' });
      availability = (await this.engine.prepare(language)) ? await this.engine.availability(language) : 'unavailable';
      if (generation !== this.generation) return this.view.own;
    }
    if (availability !== 'available') {
      this.publish({ own: 'unavailable' });
      return 'unavailable';
    }
    this.publish({ own: 'on' });
    this.engine.start(
      language,
      {
        partial: (text) => generation === this.generation && this.partial(text),
        final: (text) => generation === this.generation && this.final(text),
        error: (reason) => {
          if (generation !== this.generation) return;
          this.generation += 1;
          this.engine.stop();
          this.clearOwn();
          this.publish({ own: reason });
        },
      },
      this.hooks.microphone(),
    );
    return this.view.own;
  }

  stopOwn() {
    this.generation += 1;
    if (this.view.own !== 'on' && this.view.own !== 'preparing') return;
    this.engine.stop();
    this.clearOwn();
    this.publish({ own: 'off' });
  }

  /** A `caption-*` message over the pair's sealed channel from `peerId` (the call verified who that is). */
  receive(peerId: string, raw: unknown) {
    const message = parseCaptionMessage(raw);
    const name = this.hooks.peers().find((peer) => peer.id === peerId)?.name ?? '';
    if (!message || this.book.apply(peerId, name, message, this.now()) !== 'ok') {
      this.dropped += 1;
      return;
    }
    this.shown(peerId);
  }

  peerGone(peerId: string) {
    if (this.book.peerGone(peerId)) this.publish({});
  }

  close() {
    this.stopOwn();
    for (const timer of this.lingering.values()) clearTimeout(timer);
  }

  private async check() {
    const generation = this.generation;
    const availability = await this.engine.availability(this.view.language).catch(() => 'unavailable' as const);
    if (generation !== this.generation) return;
    this.publish({ own: availability === 'available' ? 'off' : availability });
  }

  private partial(text: string) {
    if (this.hooks.muted()) return;
    this.pending = fitCaption(text);
    if (this.partialTimer) return;
    const wait = this.lastPartial + PARTIAL_MS - this.now();
    if (wait <= 0) return this.flushPartial();
    this.partialTimer = setTimeout(() => this.flushPartial(), wait);
  }

  private flushPartial() {
    this.partialTimer = null;
    const text = this.pending;
    this.pending = null;
    if (!text || this.hooks.muted()) return;
    this.lastPartial = this.now();
    this.emit({ t: 'caption-line', n: this.line, final: false, lang: this.view.language, text });
  }

  private final(raw: string) {
    if (this.partialTimer) clearTimeout(this.partialTimer);
    this.partialTimer = null;
    this.pending = null;
    const text = fitCaption(raw);
    // Muted, the words are not ours to send (the recogniser may still hear the room).
    if (!text || this.hooks.muted()) return;
    this.emit({ t: 'caption-line', n: this.line++, final: true, lang: this.view.language, text });
  }

  private emit(message: CaptionMessage) {
    this.hooks.sendToAll(message);
    this.book.apply(this.hooks.selfId, null, message, this.now());
    this.shown(this.hooks.selfId);
  }

  /** Our line ends with our captions: the others hear "off", our tile shows nothing. */
  private clearOwn() {
    if (this.partialTimer) clearTimeout(this.partialTimer);
    this.partialTimer = null;
    this.pending = null;
    this.line += 1;
    this.hooks.sendToAll({ t: 'caption-off' });
    this.book.apply(this.hooks.selfId, null, { t: 'caption-off' }, this.now());
  }

  /** A speaker's line changed: a final one goes from the screen after LINGER_MS. */
  private shown(speaker: string) {
    const line = this.book.live.get(speaker);
    clearTimeout(this.lingering.get(speaker));
    if (line?.final) {
      this.lingering.set(
        speaker,
        setTimeout(() => {
          this.lingering.delete(speaker);
          if (this.book.expire(speaker, line.n)) this.publish({});
        }, LINGER_MS),
      );
    }
    this.publish({});
  }

  private now() {
    return this.hooks.now?.() ?? Date.now();
  }

  private publish(change: Partial<CaptionsView>) {
    this.view = { ...this.view, ...change, live: Object.fromEntries(this.book.live), transcriptLines: this.book.transcript.length };
    for (const listener of this.listeners) listener();
  }
}
