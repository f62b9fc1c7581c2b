// A link's data channels (peer.ts): the negotiated one that carries the call's messages, each
// sealed under the pair's data key (docs/e2ee-crypto.md "Keys") and opened in arrival order, and
// the channels a file opens of its own (files/transfers.ts), counted so that a link in use is not
// closed under a transfer (call/link-pruning.ts).

/** Larger messages are refused unopened: none of ours comes near it. */
const MAX_MESSAGE_BYTES = 96 * 1024;

export interface LinkChannelOptions {
  /** Data-channel encryption: every message is sealed before it is sent. */
  cipher: Promise<{ seal(text: string): Promise<Uint8Array>; open(data: Uint8Array): Promise<string | null> }>;
  onMessage: (message: unknown) => void;
  onChannelOpen: () => void;
  /** A data channel the peer opened (a file transfer's); without a taker it is closed. */
  onDataChannel?: (channel: RTCDataChannel) => void;
}

export class LinkChannels {
  /** The call's messages: negotiated on both sides with the same id, so no extra round trip and no ondatachannel race. */
  readonly main: RTCDataChannel;
  private readonly files = new Set<RTCDataChannel>();
  private sendChain: Promise<void> = Promise.resolve();
  private receiveChain: Promise<void> = Promise.resolve();

  constructor(
    private readonly pc: RTCPeerConnection,
    private readonly options: LinkChannelOptions,
  ) {
    this.main = pc.createDataChannel('enclave', { negotiated: true, id: 0, ordered: true });
    this.main.binaryType = 'arraybuffer';
    this.main.onopen = () => options.onChannelOpen();
    this.main.onmessage = (event) => {
      // Only sealed messages, in order: plain text is refused (fail-closed).
      if (!(event.data instanceof ArrayBuffer) || event.data.byteLength > MAX_MESSAGE_BYTES) return;
      const data = new Uint8Array(event.data);
      this.receiveChain = this.receiveChain.then(() => this.open(data)).catch(() => {});
    };
    pc.ondatachannel = ({ channel }) => (options.onDataChannel ? options.onDataChannel(this.counted(channel)) : channel.close());
  }

  /** Seals and sends, keeping the order of calls. */
  send(message: unknown): boolean {
    if (this.main.readyState !== 'open') return false;
    const text = JSON.stringify(message);
    this.sendChain = this.sendChain
      .then(async () => {
        const sealed = await (await this.options.cipher).seal(text);
        if (this.main.readyState === 'open') this.main.send(sealed as Uint8Array<ArrayBuffer>);
      })
      .catch(() => {});
    return true;
  }

  /** A data channel of its own (a file transfer): SCTP is up, so no renegotiation. */
  openChannel(label: string): RTCDataChannel | null {
    if (this.main.readyState !== 'open') return null;
    return this.counted(this.pc.createDataChannel(label, { ordered: true }));
  }

  /** A file's channel is open, either side's. */
  busy(): boolean {
    return this.files.size > 0;
  }

  close() {
    this.main.onopen = this.main.onmessage = null;
    this.pc.ondatachannel = null;
  }

  private async open(data: Uint8Array) {
    const text = await (await this.options.cipher).open(data);
    if (text === null) return;
    try {
      this.options.onMessage(JSON.parse(text));
    } catch {
      // not ours: ignore
    }
  }

  private counted(channel: RTCDataChannel): RTCDataChannel {
    this.files.add(channel);
    channel.addEventListener('close', () => this.files.delete(channel));
    return channel;
  }
}
