// The browser's end of the signaling channel (lib/meeting/protocol.ts): one event stream per
// tab read with fetch() so the join token can travel in a header, reconnected with
// Last-Event-ID after a drop, and POSTs for everything sent up.
import type { ApiAnswer } from '@/lib/api/browser';
import { meetingApiPath } from '@/lib/meeting-address';
import type { ServerEvent } from '@/lib/meeting/protocol';
import type { ClientMessage } from '@/lib/meeting/protocol.schema';
import { parseEventStream, type StreamMessage } from './event-stream';
import type { SignalingStatus } from './status';

export type { SignalingStatus };

/** The event stream a join opened (POST /join with Accept: text/event-stream): its events after `joined`. */
export interface OpenedStream {
  messages: AsyncGenerator<StreamMessage>;
  abort: AbortController;
}

export interface SignalingOptions {
  meetingId: string;
  token: string;
  onEvent: (event: ServerEvent) => void;
  onStatus?: (status: SignalingStatus) => void;
  /** The stream was refused for good (token invalid, participant removed). */
  onRejected?: (status: number) => void;
  /** The stream the join opened: read first, instead of a GET of our own. */
  opened?: OpenedStream | null;
}

const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000];

export class SignalingClient {
  private lastEventId: string | null = null;
  private abort = new AbortController();
  private closed = false;
  private opened: OpenedStream | null;

  constructor(private readonly options: SignalingOptions) {
    this.opened = options.opened ?? null;
    const opened = this.opened;
    if (opened) this.abort.signal.addEventListener('abort', () => opened.abort.abort(), { once: true });
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
        const messages = this.opened?.messages ?? (await this.openStream());
        this.opened = null;
        if (!messages) break;
        attempt = 0;
        this.options.onStatus?.('open');
        for await (const message of messages) {
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

  /** GET …/signal, resuming after the last event seen; null when refused for good. */
  private async openStream(): Promise<AsyncGenerator<StreamMessage> | null> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.token}`, accept: 'text/event-stream' };
    if (this.lastEventId) headers['last-event-id'] = this.lastEventId;
    const response = await fetch(meetingApiPath(this.options.meetingId, 'signal'), { headers, signal: this.abort.signal, cache: 'no-store' });
    if (response.status === 401 || response.status === 403 || response.status === 404) {
      this.closed = true;
      this.options.onRejected?.(response.status);
      return null;
    }
    if (!response.ok || !response.body) throw new Error(`signal stream ${response.status}`);
    return parseEventStream(response.body);
  }

  /** Sends one message up; resolves to the HTTP status (0 when the network failed). */
  async send(message: ClientMessage): Promise<number> {
    try {
      const response = await fetch(meetingApiPath(this.options.meetingId, 'signal'), {
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

/**
 * POST /join asking for the event stream with the answer (issue 17: one round trip fewer than
 * POST, then GET …/signal). The answer is the `joined` event's, or the JSON of a refusal.
 */
export async function postJoin(meetingId: string, body: unknown): Promise<{ answer: ApiAnswer; stream: OpenedStream | null }> {
  const abort = new AbortController();
  const failed = { answer: { status: 'error', errorCode: 'error_contact_us' }, stream: null };
  try {
    const response = await fetch(meetingApiPath(meetingId, 'join'), {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream, application/json' },
      body: JSON.stringify(body),
      signal: abort.signal,
      cache: 'no-store',
    });
    if (!response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body) {
      const answer = ((await response.json().catch(() => null)) ?? { status: response.ok ? 'ok' : 'error' }) as ApiAnswer;
      return { answer, stream: null };
    }
    const messages = parseEventStream(response.body);
    const first = await messages.next();
    if (first.done || first.value.event !== 'joined') {
      abort.abort();
      return failed;
    }
    return { answer: JSON.parse(first.value.data) as ApiAnswer, stream: { messages, abort } };
  } catch {
    abort.abort();
    return failed;
  }
}
