// The browser's end of the signaling channel (lib/meeting/protocol.ts): one event stream per
// tab read with fetch() so the join token can travel in a header, reconnected with
// Last-Event-ID after a drop, and POSTs for everything sent up.
import type { ClientMessage, ServerEvent } from '@/lib/meeting/protocol';
import { parseEventStream } from './event-stream';

export type SignalingStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface SignalingOptions {
  meetingId: string;
  token: string;
  onEvent: (event: ServerEvent) => void;
  onStatus?: (status: SignalingStatus) => void;
  /** The stream was refused for good (token invalid, participant removed). */
  onRejected?: (status: number) => void;
}

const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000];

export class SignalingClient {
  private lastEventId: string | null = null;
  private abort = new AbortController();
  private closed = false;
  private readonly base: string;

  constructor(private readonly options: SignalingOptions) {
    this.base = `/api/meeting/${encodeURIComponent(options.meetingId)}`;
  }

  /** Opens the stream and keeps it open until close(). */
  start(): void {
    void this.run();
  }

  private async run() {
    let attempt = 0;
    while (!this.closed) {
      this.options.onStatus?.(attempt === 0 ? 'connecting' : 'reconnecting');
      try {
        const headers: Record<string, string> = { authorization: `Bearer ${this.options.token}`, accept: 'text/event-stream' };
        if (this.lastEventId) headers['last-event-id'] = this.lastEventId;
        const response = await fetch(`${this.base}/signal`, { headers, signal: this.abort.signal, cache: 'no-store' });
        if (response.status === 401 || response.status === 403 || response.status === 404) {
          this.closed = true;
          this.options.onRejected?.(response.status);
          break;
        }
        if (!response.ok || !response.body) throw new Error(`signal stream ${response.status}`);
        attempt = 0;
        this.options.onStatus?.('open');
        for await (const message of parseEventStream(response.body)) {
          if (message.id) this.lastEventId = message.id;
          if (!message.data) continue;
          try {
            this.options.onEvent(JSON.parse(message.data) as ServerEvent);
          } catch (error) {
            console.warn('signaling: bad event', error);
          }
        }
      } catch (error) {
        if (this.closed) break;
        console.warn('signaling: stream dropped', error);
      }
      if (this.closed) break;
      await sleep(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]!);
      attempt += 1;
    }
    this.options.onStatus?.('closed');
  }

  /** Sends one message up; resolves to the HTTP status (0 when the network failed). */
  async send(message: ClientMessage): Promise<number> {
    try {
      const response = await fetch(`${this.base}/signal`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(message),
        keepalive: message.type === 'leave',
      });
      return response.status;
    } catch {
      return 0;
    }
  }

  close(): void {
    this.closed = true;
    this.abort.abort();
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
