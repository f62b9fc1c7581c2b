// The shared whiteboard as a call feature (call/features.ts, files/files-feature.ts's pattern):
// its messages (`wb-*`) come here, sealed on each pair's main channel like chat. The board's code
// (board-sync.ts) loads the first time someone opens the board or a peer's stroke arrives — a
// dynamic import keeps it out of the call's first load.
import type { CallFeature, FeatureContext, FeatureDefinition } from '../call/features';
import type { WhiteboardSync } from './board-sync';

export class WhiteboardFeature implements CallFeature {
  readonly prefix = 'wb-';
  private sync: Promise<WhiteboardSync> | null = null;
  /** Once loaded, messages go straight in, in the order they came. */
  private loaded: WhiteboardSync | null = null;
  private readonly drawing = new Set<(peerId: string) => void>();

  constructor(private readonly ctx: FeatureContext) {}

  load(): Promise<WhiteboardSync> {
    this.sync ??= import('./board-sync').then(({ WhiteboardSync }) => {
      this.loaded = new WhiteboardSync({
        selfId: this.ctx.selfId,
        peers: () => this.ctx.peers(),
        send: (peerId, message) => this.ctx.send(peerId, message),
        sendToAll: (message) => this.ctx.broadcast(message),
        isHost: (peerId) => this.ctx.isHost(peerId),
        selfIsHost: () => this.ctx.selfIsHost(),
        peerChanged: (peerId) => this.drawing.forEach((listener) => listener(peerId)),
      });
      return this.loaded;
    });
    return this.sync;
  }

  /** Hears each peer's change to the board (a stroke, a removal, a clear). */
  onPeerChange(listener: (peerId: string) => void): () => void {
    this.drawing.add(listener);
    return () => void this.drawing.delete(listener);
  }

  receive(peerId: string, raw: { t: string }) {
    if (this.loaded) this.loaded.receive(peerId, raw);
    else void this.load().then((sync) => sync.receive(peerId, raw));
  }

  /** A peer's channel opened: a board that exists here goes to it (a late joiner); none was drawn, nothing to send. */
  channelOpen(peerId: string) {
    void this.sync?.then((sync) => sync.channelOpen(peerId));
  }

  close() {
    void this.sync?.then((sync) => sync.close());
  }
}

/** The call's whiteboard: `session.features.use(WHITEBOARD)`. */
export const WHITEBOARD: FeatureDefinition<WhiteboardFeature> = { name: 'whiteboard', create: (ctx) => new WhiteboardFeature(ctx) };
