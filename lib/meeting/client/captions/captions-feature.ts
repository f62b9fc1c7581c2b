// Captions as a call feature (call/features.ts), registered like polls (polls/polls-feature.ts):
// `caption-*` messages come here. The captions themselves (captions.ts) and the recogniser load
// the first time someone opens "Captions" or a caption arrives: a dynamic import keeps their code
// out of the call's first load.
import type { CallFeature, FeatureContext, FeatureDefinition } from '../call/features';
import type { Captions } from './captions';
import type { CaptionEngine } from './engine';

/** What the call screen tells the feature about our side: the microphone, muted or not, the language we speak. */
export interface LocalSide {
  microphone(): MediaStreamTrack | null;
  muted(): boolean;
  language: string;
}

export class CaptionsFeature implements CallFeature {
  readonly prefix = 'caption-';
  private captions: Promise<Captions> | null = null;
  private loaded: Captions | null = null;
  private local: LocalSide = { microphone: () => null, muted: () => true, language: 'en' };
  /** A recogniser other than the browser's: only the test probe sets one (probe.ts). */
  private engine: CaptionEngine | undefined;
  private readonly listeners = new Set<(captions: Captions) => void>();

  constructor(private readonly ctx: FeatureContext) {}

  private peers() {
    return this.ctx.peers().filter((peer) => !this.ctx.inAnotherRoom(peer.id));
  }

  setLocal(local: LocalSide) {
    this.local = local;
  }

  useEngine(engine: CaptionEngine) {
    this.engine = engine;
    this.loaded?.setEngine(engine);
  }

  /** The call's captions, loading their code the first time. */
  load(): Promise<Captions> {
    this.captions ??= import('./captions').then(({ Captions }) => {
      const captions = new Captions({
        selfId: this.ctx.selfId,
        // Like chat, captions stay inside our breakout room (breakout/breakout-feature.ts, call/messenger.ts roomOnly).
        peers: () => this.peers(),
        send: (peerId, message) => this.ctx.send(peerId, message),
        sendToAll: (message) =>
          this.ctx.sendToAll(
            this.peers().map(({ id }) => id),
            message,
          ),
        microphone: () => this.local.microphone(),
        muted: () => this.local.muted(),
        language: this.local.language,
        engine: this.engine,
      });
      this.loaded = captions;
      for (const listener of this.listeners) listener(captions);
      return captions;
    });
    return this.captions;
  }

  /** Tells the call screen once the captions exist (someone opened them or a caption came). */
  onLoaded(listener: (captions: Captions) => void): () => void {
    this.listeners.add(listener);
    void this.captions?.then(listener);
    return () => void this.listeners.delete(listener);
  }

  receive(peerId: string, raw: { t: string }) {
    // An honest page in another room sends us none.
    if (this.ctx.inAnotherRoom(peerId)) return;
    if (this.loaded) this.loaded.receive(peerId, raw);
    else void this.load().then((captions) => captions.receive(peerId, raw));
  }

  peerGone(peerId: string) {
    void this.captions?.then((captions) => captions.peerGone(peerId));
  }

  close() {
    void this.captions?.then((captions) => captions.close());
  }
}

/** The call's captions: `session.features.use(CAPTIONS)`. */
export const CAPTIONS: FeatureDefinition<CaptionsFeature> = { name: 'captions', create: (ctx) => new CaptionsFeature(ctx) };
