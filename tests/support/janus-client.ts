// A browser's side of Janus, as far as tests need it: a WebSocket session (the `janus-protocol`
// subprotocol), a VideoRoom handle, requests answered by transaction, and the events Janus pushes.
import WebSocket from 'ws';

export interface JanusMessage {
  janus: string;
  transaction?: string;
  session_id?: number;
  sender?: number;
  data?: { id?: number };
  error?: { code: number; reason: string };
  plugindata?: { plugin: string; data: Record<string, unknown> };
  [key: string]: unknown;
}

export class JanusSocket {
  private counter = 0;
  private readonly waiting = new Map<string, { resolve: (message: JanusMessage) => void; acks: boolean }>();
  /** Messages Janus pushed without a transaction we wait for (events, hangups, `detached`…). */
  readonly pushed: JanusMessage[] = [];
  private readonly pushListeners = new Set<() => void>();
  sessionId: number | null = null;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as JanusMessage;
      const waiter = message.transaction ? this.waiting.get(message.transaction) : undefined;
      if (waiter && !(message.janus === 'ack' && !waiter.acks)) {
        this.waiting.delete(message.transaction!);
        waiter.resolve(message);
        return;
      }
      if (message.janus === 'ack') return;
      this.pushed.push(message);
      this.pushListeners.forEach((listener) => listener());
    });
  }

  static open(url: string): Promise<JanusSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, 'janus-protocol');
      socket.once('open', () => resolve(new JanusSocket(socket)));
      socket.once('error', reject);
    });
  }

  /**
   * Sends a request and resolves with Janus's answer to it. `acks: false` waits past the `ack` for
   * the asynchronous answer (a plugin `event`, as a VideoRoom join gets).
   */
  send(body: Record<string, unknown>, options: { acks?: boolean; timeoutMs?: number } = {}): Promise<JanusMessage> {
    const transaction = `t${(this.counter += 1)}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(transaction);
        reject(new Error(`no answer to ${JSON.stringify(body)}`));
      }, options.timeoutMs ?? 5_000);
      this.waiting.set(transaction, {
        acks: options.acks ?? true,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      });
      this.socket.send(JSON.stringify({ ...body, transaction, ...(this.sessionId !== null && !('session_id' in body) ? { session_id: this.sessionId } : {}) }));
    });
  }

  /** `create` with this token; the session id on success, Janus's error otherwise. */
  async createSession(token: string): Promise<JanusMessage> {
    const answer = await this.send({ janus: 'create', token });
    if (answer.janus === 'success') this.sessionId = answer.data!.id!;
    return answer;
  }

  attach(token: string, plugin = 'janus.plugin.videoroom'): Promise<JanusMessage> {
    return this.send({ janus: 'attach', plugin, token });
  }

  /** A plugin message on a handle, answered asynchronously (join, configure…): the `event`'s data or Janus's error. */
  async message(token: string, handleId: number, body: Record<string, unknown>, jsep?: Record<string, unknown>): Promise<JanusMessage> {
    return this.send({ janus: 'message', handle_id: handleId, token, body, ...(jsep ? { jsep } : {}) }, { acks: false });
  }

  /** The first pushed message that matches, waiting up to `timeoutMs`. */
  nextPushed(match: (message: JanusMessage) => boolean, timeoutMs = 5_000): Promise<JanusMessage> {
    return new Promise((resolve, reject) => {
      const look = () => {
        const index = this.pushed.findIndex(match);
        if (index < 0) return false;
        const [found] = this.pushed.splice(index, 1);
        this.pushListeners.delete(look);
        clearTimeout(timer);
        resolve(found!);
        return true;
      };
      const timer = setTimeout(() => {
        this.pushListeners.delete(look);
        reject(new Error(`nothing matching pushed; got ${JSON.stringify(this.pushed)}`));
      }, timeoutMs);
      if (!look()) this.pushListeners.add(look);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

/** A session and a VideoRoom handle on `url` with `token`, ready for joins. */
export async function videoRoomHandle(url: string, token: string): Promise<{ socket: JanusSocket; handleId: number }> {
  const socket = await JanusSocket.open(url);
  const created = await socket.createSession(token);
  if (created.janus !== 'success') throw new Error(`session refused: ${JSON.stringify(created)}`);
  const attached = await socket.attach(token);
  if (attached.janus !== 'success') throw new Error(`attach refused: ${JSON.stringify(attached)}`);
  return { socket, handleId: attached.data!.id! };
}
