// The session's file transfers (files/transfers.ts), loaded the first time someone sends or
// offers a file: a dynamic import keeps their code out of the call's first load. File messages
// and channels from the links come here; the rest of the messages go to the machine.
import type { FileTransfers } from '../files/transfers';
import type { PeerLink } from '../links/peer';

export interface SessionFilesOptions {
  /** Bytes: the largest file sent or received (JoinAnswer.fileLimitBytes). */
  limit: number;
  /** The peers a file can go to now: verified, their data channel open. */
  peers(): { id: string; name: string }[];
  link(peerId: string): PeerLink | undefined;
}

export class SessionFiles {
  private transfers: Promise<FileTransfers> | null = null;
  private readonly listeners = new Set<(files: FileTransfers) => void>();

  constructor(private readonly options: SessionFilesOptions) {}

  /** The file transfers, loading their code the first time (a dynamic import: not in the call's first load). */
  load(): Promise<FileTransfers> {
    this.transfers ??= import('../files/transfers').then(({ FileTransfers }) => {
      const files = new FileTransfers({
        limit: this.options.limit,
        peers: this.options.peers,
        send: (peerId, message) => this.options.link(peerId)?.send(message) ?? false,
        openChannel: (peerId, label) => this.options.link(peerId)?.openChannel(label) ?? null,
      });
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
  receive(peerId: string, raw: unknown) {
    void this.load().then((files) => files.receive(peerId, raw));
  }

  /** A data channel a peer opened for a file: refused while no transfer could be under way. */
  channel(peerId: string, channel: RTCDataChannel) {
    if (this.transfers) void this.transfers.then((files) => files.channel(peerId, channel));
    else channel.close();
  }

  peerGone(peerId: string) {
    void this.transfers?.then((files) => files.peerGone(peerId));
  }

  close() {
    void this.transfers?.then((files) => files.close());
  }
}

/** A `file-*` message (files/file-messages.ts checks the rest once its code is loaded). */
export function isFileMessage(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && typeof (raw as { t?: unknown }).t === 'string' && (raw as { t: string }).t.startsWith('file-');
}
