import 'server-only';
import { isShared, markShared } from '@/lib/shared-class';

/**
 * Janus's HTTP API as the app speaks it (https://janus.conf.meetecho.com/docs/rest.html): a
 * session, a handle on a plugin, synchronous plugin requests, then the session destroyed. Every
 * request carries a fresh token; every failure is a JanusHttpError that says which kind it was.
 */

export type JanusHttpErrorKind =
  /** No answer in time, refused connection, an HTTP status other than 200: the node is not there. */
  | 'unreachable'
  /** Janus answered `error` (403 a refused token, 458 no such session…). */
  | 'janus'
  /** The plugin answered with an `error_code` (VideoRoom: 426 no such room, 427 exists, 433 unauthorized…). */
  | 'plugin'
  /** Something Janus would never answer. */
  | 'protocol';

export class JanusHttpError extends Error {
  constructor(
    readonly kind: JanusHttpErrorKind,
    message: string,
    /** Janus's or the plugin's error code, when it gave one. */
    readonly code?: number,
  ) {
    super(message);
    this.name = 'JanusHttpError';
    markShared(this, 'JanusHttpError');
  }

  /** Recognises one thrown by another copy of this module (lib/shared-class.ts). */
  static [Symbol.hasInstance](value: unknown): boolean {
    return isShared(value, 'JanusHttpError');
  }
}

export const DEFAULT_TIMEOUT_MS = 5_000;

interface JanusAnswer {
  janus: string;
  transaction?: string;
  data?: { id?: number };
  error?: { code: number; reason: string };
  plugindata?: { plugin: string; data: Record<string, unknown> };
}

export interface JanusHttpOptions {
  /** A token valid for this request (Janus checks one on every request when token_auth is on). */
  token: () => string;
  /** Each request's own limit (DEFAULT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Ends every request of an operation at once: one time-out for all of them. */
  signal?: AbortSignal;
}

let transactions = 0;
const transaction = () => `enclave-${process.pid}-${(transactions += 1)}`;

function requestSignal(options: JanusHttpOptions): AbortSignal {
  const own = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return options.signal ? AbortSignal.any([own, options.signal]) : own;
}

async function post(url: string, body: Record<string, unknown>, options: JanusHttpOptions): Promise<JanusAnswer> {
  const sent = { ...body, transaction: transaction(), token: options.token() };
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sent),
      signal: requestSignal(options),
    });
  } catch (error) {
    const reason = (error instanceof Error && error.name === 'TimeoutError') || options.signal?.aborted ? 'no answer in time' : 'connection failed';
    throw new JanusHttpError('unreachable', `Janus at ${url}: ${reason}`);
  }
  if (!response.ok) throw new JanusHttpError('unreachable', `Janus at ${url}: HTTP ${response.status}`, response.status);
  let answer: JanusAnswer;
  try {
    answer = (await response.json()) as JanusAnswer;
  } catch {
    throw new JanusHttpError('protocol', `Janus at ${url}: an answer that is not JSON`);
  }
  if (answer.transaction !== sent.transaction) throw new JanusHttpError('protocol', `Janus at ${url}: an answer to another transaction`);
  if (answer.janus === 'error') throw new JanusHttpError('janus', `Janus: ${answer.error?.reason ?? 'error'}`, answer.error?.code);
  return answer;
}

/** A handle on a plugin inside a session. */
export class JanusHttpHandle {
  constructor(
    /** The handle's address: its session's and its own id, unique while Janus runs. */
    readonly url: string,
    private readonly options: JanusHttpOptions,
  ) {}

  /** The same handle, its requests under other limits (one operation's time-out and signal). */
  under(limits: Pick<JanusHttpOptions, 'timeoutMs' | 'signal'>): JanusHttpHandle {
    return new JanusHttpHandle(this.url, { ...this.options, ...limits });
  }

  /**
   * A synchronous plugin request (VideoRoom's create, exists, allowed, kick, destroy, list…): its
   * answer's data, or a JanusHttpError of kind 'plugin' with the plugin's error_code.
   */
  async request<T extends Record<string, unknown> = Record<string, unknown>>(body: Record<string, unknown>): Promise<T> {
    const answer = await post(this.url, { janus: 'message', body }, this.options);
    const data = answer.plugindata?.data;
    if (answer.janus !== 'success' || !data) throw new JanusHttpError('protocol', `Janus: "${answer.janus}" to a synchronous request`);
    if (typeof data.error_code === 'number') throw new JanusHttpError('plugin', `Janus plugin: ${String(data.error ?? data.error_code)}`, data.error_code);
    return data as T;
  }
}

/** A Janus session over HTTP: handles attach to it; destroy() ends it (or Janus's session timeout does). */
export class JanusHttpSession {
  private constructor(
    private readonly url: string,
    private readonly options: JanusHttpOptions,
  ) {}

  static async create(apiUrl: string, options: JanusHttpOptions): Promise<JanusHttpSession> {
    const answer = await post(apiUrl, { janus: 'create' }, options);
    if (answer.janus !== 'success' || typeof answer.data?.id !== 'number') throw new JanusHttpError('protocol', 'Janus: no session id');
    return new JanusHttpSession(`${apiUrl}/${answer.data.id}`, options);
  }

  async attach(plugin: string): Promise<JanusHttpHandle> {
    const answer = await post(this.url, { janus: 'attach', plugin }, this.options);
    if (answer.janus !== 'success' || typeof answer.data?.id !== 'number') throw new JanusHttpError('protocol', 'Janus: no handle id');
    return new JanusHttpHandle(`${this.url}/${answer.data.id}`, this.options);
  }

  async destroy(): Promise<void> {
    await post(this.url, { janus: 'destroy' }, this.options);
  }
}

/** Runs `work` with a handle on `plugin` in a session of its own, destroyed afterwards whatever happens. */
export async function withJanusHttpHandle<T>(
  apiUrl: string,
  plugin: string,
  options: JanusHttpOptions,
  work: (handle: JanusHttpHandle) => Promise<T>,
): Promise<T> {
  const session = await JanusHttpSession.create(apiUrl, options);
  try {
    return await work(await session.attach(plugin));
  } finally {
    // Left behind, Janus would close it itself after its session_timeout.
    await session.destroy().catch(() => undefined);
  }
}
