// A Janus session over its WebSocket API, as much of it as the meeting uses (issue 38): create a
// session with the ticket's signed token, attach VideoRoom handles, send plugin requests and
// trickle candidates, keep the session alive, and hand each handle its events. Janus relays
// media; it never sees a key (docs/e2ee-crypto.md "Sender keys").

/** Janus closes a session it has not heard from in 60 s; a keepalive every 25 s keeps it. */
const KEEPALIVE_MS = 25_000;
/** A request Janus has not answered by then fails: the caller falls back or reports it. */
const REQUEST_TIMEOUT_MS = 10_000;

export interface JanusJsep {
  type: RTCSdpType;
  sdp: string;
  e2ee?: boolean;
}

/** An event for one handle: the plugin's data and, for negotiations, a description. */
export interface HandleEvent {
  janus: string;
  data?: Record<string, unknown>;
  jsep?: JanusJsep;
  error?: { code: number; reason: string };
}

interface JanusMessage {
  janus: string;
  transaction?: string;
  session_id?: number;
  sender?: number;
  data?: { id?: number };
  plugindata?: { plugin: string; data: Record<string, unknown> };
  jsep?: JanusJsep;
  error?: { code: number; reason: string };
}

export class JanusError extends Error {
  constructor(
    readonly code: number,
    reason: string,
  ) {
    super(`janus ${code}: ${reason}`);
  }
}

export class JanusSession {
  private transactions = 0;
  private readonly pending = new Map<
    string,
    { resolve: (message: JanusMessage) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> }
  >();
  private readonly handles = new Map<number, (event: HandleEvent) => void>();
  private sessionId = 0;
  private keepalive: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  /** Called once when the socket closes without close() (network, Janus restarted). */
  onLost: (() => void) | null = null;

  private constructor(
    private readonly socket: WebSocket,
    private token: string,
  ) {
    socket.addEventListener('message', (event) => this.receive(event.data));
    socket.addEventListener('close', () => {
      for (const { reject, timer } of this.pending.values()) {
        clearTimeout(timer);
        reject(new Error('janus: connection closed'));
      }
      this.pending.clear();
      if (this.keepalive) clearInterval(this.keepalive);
      if (!this.closed) this.onLost?.();
    });
  }

  /** Opens the socket and a session with the ticket's token. */
  static async open(url: string, token: string): Promise<JanusSession> {
    const socket = new WebSocket(url, 'janus-protocol');
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error('janus: cannot connect')), { once: true });
    });
    const session = new JanusSession(socket, token);
    const created = await session.request({ janus: 'create' });
    session.sessionId = created.data?.id ?? 0;
    session.keepalive = setInterval(() => void session.request({ janus: 'keepalive' }).catch(() => undefined), KEEPALIVE_MS);
    return session;
  }

  /** A VideoRoom handle; `onEvent` hears its plugin events, media state and hangups. */
  async attach(onEvent: (event: HandleEvent) => void): Promise<JanusHandle> {
    const attached = await this.request({ janus: 'attach', plugin: 'janus.plugin.videoroom' });
    const id = attached.data?.id ?? 0;
    this.handles.set(id, onEvent);
    return new JanusHandle(this, id);
  }

  /** A plugin request; resolves with the plugin's answer (synchronous or the first event for it). */
  async message(handleId: number, body: Record<string, unknown>, jsep?: JanusJsep): Promise<HandleEvent> {
    const answer = await this.request({ janus: 'message', handle_id: handleId, body, ...(jsep && { jsep }) });
    const data = answer.plugindata?.data ?? {};
    if (typeof data.error_code === 'number') throw new JanusError(data.error_code, String(data.error ?? 'error'));
    return { janus: answer.janus, data, jsep: answer.jsep };
  }

  /** A later ticket's token: Janus checks the token on every request, keep-alives too, and refuses it once expired. */
  setToken(token: string) {
    this.token = token;
  }

  trickle(handleId: number, candidate: RTCIceCandidateInit | null) {
    void this.request({ janus: 'trickle', handle_id: handleId, candidate: candidate ?? { completed: true } }).catch(() => undefined);
  }

  async detach(handleId: number) {
    this.handles.delete(handleId);
    await this.request({ janus: 'detach', handle_id: handleId }).catch(() => undefined);
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.keepalive) clearInterval(this.keepalive);
    if (this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ janus: 'destroy', session_id: this.sessionId, transaction: this.nextTransaction(), token: this.token }));
    }
    this.socket.close();
  }

  private nextTransaction(): string {
    this.transactions += 1;
    return `t${this.transactions}`;
  }

  /**
   * Sends a request and waits for its answer: `success`, or for plugin messages the `event` that
   * carries the plugin's answer (Janus first sends an `ack` for those).
   */
  private request(message: Record<string, unknown>): Promise<JanusMessage> {
    const transaction = this.nextTransaction();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new Error(`janus: no answer to ${String(message.janus)}`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(transaction, { resolve, reject, timer });
      const session = this.sessionId ? { session_id: this.sessionId } : {};
      this.socket.send(JSON.stringify({ ...message, ...session, transaction, token: this.token }));
    });
  }

  private receive(raw: unknown) {
    let message: JanusMessage;
    try {
      message = JSON.parse(String(raw)) as JanusMessage;
    } catch {
      return;
    }
    const waiting = message.transaction ? this.pending.get(message.transaction) : undefined;
    if (waiting && message.janus !== 'ack') {
      clearTimeout(waiting.timer);
      this.pending.delete(message.transaction!);
      if (message.janus === 'error') waiting.reject(new JanusError(message.error?.code ?? 0, message.error?.reason ?? 'error'));
      else waiting.resolve(message);
      // An event that answers a request may carry a description for the handle too: it is
      // handled by the caller, not also as an event.
      return;
    }
    if (message.janus === 'ack' || message.sender === undefined) return;
    this.handles.get(message.sender)?.({ janus: message.janus, data: message.plugindata?.data, jsep: message.jsep, error: message.error });
  }
}

/** One attached VideoRoom handle: a publisher or a subscriber. */
export class JanusHandle {
  constructor(
    private readonly session: JanusSession,
    readonly id: number,
  ) {}

  message(body: Record<string, unknown>, jsep?: JanusJsep) {
    return this.session.message(this.id, body, jsep);
  }

  trickle(candidate: RTCIceCandidateInit | null) {
    this.session.trickle(this.id, candidate);
  }

  detach() {
    return this.session.detach(this.id);
  }
}
