// File transfer as a call feature (call/features.ts): the first one registered that way. Its
// messages (`file-*`) and channels (`file:*`) come here; the transfers themselves (transfers.ts)
// load the first time someone sends or offers a file: a dynamic import keeps their code out of the
// call's first load.
import type { CallFeature, FeatureContext, FeatureDefinition } from '../call/features';
import type { FileTransfers } from './transfers';
import type { FileMessage } from './file-messages';

export class FilesFeature implements CallFeature {
  readonly prefix = 'file-';
  readonly channelPrefix = 'file:';
  private transfers: Promise<FileTransfers> | null = null;
  /** Once loaded, messages and channels go straight in, in the order they came. */
  private loaded: FileTransfers | null = null;
  private readonly listeners = new Set<(files: FileTransfers) => void>();

  constructor(private readonly ctx: FeatureContext) {}

  /** The file transfers, loading their code the first time (a dynamic import: not in the call's first load). */
  load(): Promise<FileTransfers> {
    this.transfers ??= import('./transfers').then(({ FileTransfers }) => {
      const files = new FileTransfers({
        limit: this.ctx.fileLimit,
        peers: () => this.ctx.peers(),
        send: (peerId, message: FileMessage) => this.ctx.send(peerId, message),
        openChannel: (peerId, label) => this.ctx.openChannel(peerId, label),
      });
      this.loaded = files;
      for (const listener of this.listeners) listener(files);
      return files;
    });
    return this.transfers;
  }

  /** Tells the call screen once the file transfers exist (someone sent or offered a file). */
  onLoaded(listener: (files: FileTransfers) => void): () => void {
    this.listeners.add(listener);
    void this.transfers?.then(listener);
    return () => void this.listeners.delete(listener);
  }

  /** A file message from a peer: it loads the transfers' code (an offer is how a first file comes). */
  receive(peerId: string, raw: { t: string }) {
    if (this.loaded) this.loaded.receive(peerId, raw);
    else void this.load().then((files) => files.receive(peerId, raw));
  }

  /** A data channel a peer opened for a file: refused while no transfer could be under way. */
  channel(peerId: string, channel: RTCDataChannel) {
    if (this.loaded) this.loaded.channel(peerId, channel);
    else if (this.transfers) void this.transfers.then((files) => files.channel(peerId, channel));
    else channel.close();
  }

  peerGone(peerId: string) {
    void this.transfers?.then((files) => files.peerGone(peerId));
  }

  close() {
    void this.transfers?.then((files) => files.close());
  }
}

/** The call's file transfers: `session.features.use(FILES)`. */
export const FILES: FeatureDefinition<FilesFeature> = { name: 'files', create: (ctx) => new FilesFeature(ctx) };
