import 'server-only';
import { processSlot } from '@/lib/process-slot';
import { JanusHttpError, JanusHttpSession, type JanusHttpHandle, type JanusHttpOptions } from './janus-http';

/**
 * The app's own Janus session per node and plugin, kept between operations. Made for each
 * operation, a ticket cost five HTTP requests (a session, a handle, the room's creation, the token
 * added, the session's end): 270 ms at 10 people and 1.4 s at 50 under load (bench/RESULTS.md,
 * "Large rooms through the SFU: 50 people join"). Kept, it costs the one that does the work.
 *
 * Janus ends a session that receives nothing for its session_timeout (60 s in
 * deploy/janus/janus.jcfg; an operator may set less): a session idle for KEPT_IDLE_MS is not
 * reused but replaced. One that Janus no longer knows anyway (it restarted: 458, or the handle
 * went: 459) is replaced and the work runs once more; every operation the app runs on it
 * tolerates a second run (lib/sfu/videoroom.ts: "exists", "not there" are answers, not errors).
 */
export const KEPT_IDLE_MS = 25_000;

/** Janus's codes for a session or handle it does not know (janus/apierror.h). */
const GONE_CODES = new Set([458, 459]);

interface Kept {
  handle: Promise<{ session: JanusHttpSession; handle: JanusHttpHandle }>;
  usedAt: number;
}

const keptSessions = processSlot<Map<string, Kept>>('sfu.kept-sessions');
const kept = () => keptSessions.getOrCreate(() => new Map());

/** How an operation is limited: a time-out for each request, a signal ending them all. */
export type OperationLimits = Pick<JanusHttpOptions, 'timeoutMs' | 'signal'>;

/**
 * Runs `work` with the kept handle on `plugin` at `apiUrl`, under `limits`. `token` signs each
 * request (the node's shared secret may differ between nodes, so it is part of the key).
 */
export async function withKeptHandle<T>(
  apiUrl: string,
  plugin: string,
  token: { key: string; make: () => string },
  limits: OperationLimits,
  work: (handle: JanusHttpHandle) => Promise<T>,
  now: () => number = Date.now,
): Promise<T> {
  const key = `${apiUrl}\0${plugin}\0${token.key}`;
  for (let attempt = 0; ; attempt += 1) {
    const entry = keptEntry(key, apiUrl, plugin, token.make, now());
    try {
      const { handle } = await untilAborted(entry.handle, limits.signal);
      const result = await work(handle.under(limits));
      entry.usedAt = now();
      return result;
    } catch (error) {
      // An operation that ran out of its own time says nothing of the session others share.
      if (limits.signal?.aborted || !(error instanceof JanusHttpError)) throw error;
      const gone = error.kind === 'janus' && GONE_CODES.has(error.code ?? 0);
      if (gone || error.kind === 'unreachable') forget(key, entry);
      if (!gone || attempt > 0) throw error;
    }
  }
}

/**
 * Ends every kept session (shutdown, tests), waiting `waitMs` at most: Janus ends a session left
 * behind after its session_timeout anyway, and a node that is down must not hold up a shutdown.
 */
export async function closeKeptSessions(waitMs = 1_000): Promise<void> {
  const entries = [...kept().values()];
  kept().clear();
  await Promise.race([Promise.all(entries.map((entry) => endSession(entry))), new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
}

function keptEntry(key: string, apiUrl: string, plugin: string, token: () => string, at: number): Kept {
  const current = kept().get(key);
  if (current && at - current.usedAt < KEPT_IDLE_MS) return current;
  if (current) forget(key, current);
  // Made under the default time-out, not one operation's: other operations wait on it too.
  const handle = JanusHttpSession.create(apiUrl, { token }).then(async (session) => ({ session, handle: await session.attach(plugin) }));
  const entry: Kept = { handle, usedAt: at };
  handle.catch(() => forget(key, entry));
  kept().set(key, entry);
  return entry;
}

function forget(key: string, entry: Kept) {
  if (kept().get(key) !== entry) return; // replaced already by another operation
  kept().delete(key);
  void endSession(entry);
}

async function endSession(entry: Kept) {
  await entry.handle.then(({ session }) => session.destroy()).catch(() => undefined);
}

/** `promise`, or the signal's abort as an unreachable node, whichever comes first. */
function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  const aborted = () => new JanusHttpError('unreachable', 'Janus: no answer in time');
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
